"""PyAV video/audio round trips and fallbacks (robotask.episode.files.media)."""

from __future__ import annotations

import av
import numpy as np
import pytest

from robotask.episode.files import media
from robotask.errors import RobotaskError

SR = 16000


def count_video_frames(path) -> int:
    """Decodable frames in the first video stream of a file (decodes it): what a written video holds."""
    with av.open(str(path)) as container:
        return sum(len(packet.decode()) for packet in container.demux(container.streams.video[0]))


def audio_info(path) -> dict | None:
    """Codec, native sample rate and channel count of the first audio stream, or None."""
    with av.open(str(path)) as container:
        if not container.streams.audio:
            return None
        s = container.streams.audio[0]
        return {"codec": s.codec_context.name, "sample_rate": int(s.rate), "channels": s.channels}


def _write(path, n=30, audio=None, size=32):
    """Solid-colour frames whose red channel encodes the frame index."""
    frames = np.zeros((n, size, size, 3), np.uint8)
    frames[..., 0] = (np.arange(n) * 8)[:, None, None]
    frames[..., 1] = 128
    with media.VideoWriter(path, size, size, 20, audio_rate=SR if audio is not None else None) as w:
        w.write_frames(frames)
        if audio is not None:
            w.write_audio(audio[: len(audio) // 2])
            w.write_audio(audio[len(audio) // 2:])
    return frames


def test_video_round_trip(tmp_path):
    p = tmp_path / "v.mp4"
    frames = _write(p)
    assert media.video_fps(p) == 20.0
    assert count_video_frames(p) == 30
    out = list(media.iter_video_frames(p, 16, 30))
    assert len(out) == 30 and out[0].shape == (16, 16, 3) and out[0].dtype == np.uint8
    red = np.array([f[..., 0].mean() for f in out])
    np.testing.assert_allclose(red, frames[:, 0, 0, 0], atol=6)  # lossy codec, same ordering
    assert np.abs(np.array([f[..., 1].mean() for f in out]) - 128).max() < 6


def test_audio_round_trip_length_and_pitch(tmp_path):
    p = tmp_path / "a.mp4"
    t = np.arange(int(1.5 * SR)) / SR
    _write(p, n=30, audio=0.3 * np.sin(2 * np.pi * 440 * t))
    info = audio_info(p)
    assert info == {"codec": "aac", "sample_rate": SR, "channels": 1}
    x, sr = media.read_audio(p, SR)
    assert sr == SR and x.dtype == np.float32
    assert len(t) <= len(x) <= len(t) + 1024  # AAC pads the last frame; encoder delay is compensated
    spec = np.abs(np.fft.rfft(x[2000:18000]))
    assert abs(np.argmax(spec) * SR / 16000 - 440) < 3
    y, _ = media.read_audio(p, 8000)  # resampled in the decoder
    assert abs(len(y) - len(x) / 2) < 600


def test_audio_at_the_target_rate_skips_the_resampler_with_the_same_samples(tmp_path):
    import av

    p = tmp_path / "r.mp4"
    _write(p, n=40, audio=0.4 * np.sin(np.arange(SR * 2) / 7.0))
    resampler = av.AudioResampler(format="flt", layout="mono", rate=SR)
    with av.open(str(p)) as c:
        chunks = [out.to_ndarray().reshape(-1) for frame in c.decode(c.streams.audio[0])
                  for out in resampler.resample(frame)]
    chunks += [out.to_ndarray().reshape(-1) for out in resampler.resample(None)]
    x, _ = media.read_audio(p, SR)
    assert x.tobytes() == np.concatenate(chunks).astype(np.float32).tobytes()


def test_onset_alignment(tmp_path):
    p = tmp_path / "c.mp4"
    x = np.zeros(SR * 2)
    x[8000:8200] = 0.5
    _write(p, n=40, audio=x)
    y, _ = media.read_audio(p)
    assert abs(int(np.argmax(np.abs(y) > 0.1)) - 8000) < 64


def test_short_video_fill_modes(tmp_path):
    p = tmp_path / "s.mp4"
    _write(p, n=10)
    with pytest.warns(UserWarning, match="decoded 10 of 15 frames"):
        rep = list(media.iter_video_frames(p, 8, 15))
    assert len(rep) == 15 and np.array_equal(rep[-1], rep[9])
    with pytest.warns(UserWarning):
        zer = list(media.iter_video_frames(p, 8, 15, fill="zeros"))
    assert not zer[12].any() and zer[9].any()
    with pytest.warns(UserWarning):
        non = list(media.iter_video_frames(p, 8, 15, fill="none"))
    assert non[10] is None and non[9] is not None
    with pytest.raises(RobotaskError, match="fill"):
        list(media.iter_video_frames(p, 8, 15, fill="bad"))


def test_video_chunks_hold_the_frames_of_iter_video_frames(tmp_path):
    p = tmp_path / "c.mp4"
    _write(p, n=30)
    frames = np.stack(list(media.iter_video_frames(p, 16, 30)))
    for chunk in (1, 7, 30, 64):
        report: dict = {}
        blocks = [b.copy() for b in media.read_video_chunks(p, 16, 30, chunk, report=report)]
        assert [len(b) for b in blocks] == [min(chunk, 30 - i) for i in range(0, 30, chunk)]
        assert np.concatenate(blocks).tobytes() == frames.tobytes()
        assert report == {"decoded": 30, "expected": 30, "error": None}
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(p.read_bytes()[: p.stat().st_size // 2])
    report = {}
    got = sum(len(b) for b in media.read_video_chunks(cut, 8, 30, 4, report=report))
    assert got == report["decoded"] < 30
    report = {}
    assert list(media.read_video_chunks(tmp_path / "nope.mp4", 8, 5, 4, report=report)) == []
    assert report["decoded"] == 0 and "not found" in report["error"]


def test_truncated_and_missing_files(tmp_path):
    p = tmp_path / "t.mp4"
    _write(p, n=60)
    data = p.read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(data[: len(data) // 2])
    with pytest.warns(UserWarning, match=r"cut\.mp4: decoded \d+ of 60 frames"):
        out = list(media.iter_video_frames(cut, 8, 60, fill="none"))
    got = sum(f is not None for f in out)
    assert 0 < got < 60 and len(out) == 60
    with pytest.warns(UserWarning, match="not found"):
        out = list(media.iter_video_frames(tmp_path / "nope.mp4", 8, 5, fill="none"))
    assert out == [None] * 5
    with pytest.raises(RobotaskError, match="nope.mp4"):
        media.video_fps(tmp_path / "nope.mp4")
    junk = tmp_path / "junk.mp4"
    junk.write_bytes(b"not a video" * 10)
    with pytest.raises(RobotaskError, match="junk.mp4"):
        media.video_fps(junk)


def test_no_audio_stream_returns_none(tmp_path):
    p = tmp_path / "n.mp4"
    _write(p, n=5)
    with pytest.warns(UserWarning, match="no audio stream"):
        assert media.read_audio(p) is None
    with pytest.warns(UserWarning, match="not found"):
        assert media.read_audio(tmp_path / "missing.mp4") is None


def test_writer_rejects_odd_size(tmp_path):
    with pytest.raises(RobotaskError, match="even"):
        media.VideoWriter(tmp_path / "o.mp4", 31, 32)


@pytest.mark.parametrize("size", [8, 16, 32])
def test_video_chunks_are_the_bits_of_pyav_reformat(tmp_path, size):
    """Textured frames: the chunks (rows padded in the scaler's output at 8 px, not at 16 or 32) hold the
    pixels PyAV's own ``reformat`` gives with the format and algorithm named by strings."""
    import av

    p = tmp_path / "t.mp4"
    rng = np.random.default_rng(size)
    frames = rng.integers(0, 256, (12, 64, 64, 3), dtype=np.uint8)
    with media.VideoWriter(p, 64, 64, 20) as w:
        w.write_frames(frames)
    with av.open(str(p)) as container:
        want = np.stack([f.reformat(width=size, height=size, format="rgb24", interpolation="AREA").to_ndarray()
                         for f in container.decode(video=0)])
    blocks = [b.copy() for b in media.read_video_chunks(p, size, 12, 5)]
    assert np.concatenate(blocks).tobytes() == want.tobytes()
    assert np.stack(list(media.iter_video_frames(p, size, 12))).tobytes() == want.tobytes()
