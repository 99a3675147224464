"""Video and audio of an episode through PyAV (no ffmpeg binary): H.264 + AAC write, RGB/mono read.

Used by ``robotask.episode.synthesis.generate`` (writing), the loader and the features (reading), and notebook
``10_episode`` (frames and spectrogram).
"""

from __future__ import annotations

import warnings
from collections.abc import Iterator
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
from av.video.format import VideoFormat
from av.video.reformatter import Interpolation, VideoReformatter

from ...errors import RobotaskError

FILL_MODES = ("repeat", "zeros", "none")
AAC_PRIMING = 1024  # samples of encoder delay the native AAC encoder puts before the signal
# Reading decodes each video in one thread and scales each frame in one thread: the feature build
# already runs two streams at once, and for small frames FFmpeg's frame and slice threads cost more
# in hand-offs than they save (128 px episode, six videos: 3.6 s with thread_type "AUTO", 2.1 s with
# "NONE"; the scaler's automatic threads triple its time per frame). The frames are the same bits.
DECODE_THREAD_TYPE = "NONE"
SCALER_THREADS = 1
# The scaler's output format as PyAV's object and its algorithm as the flag's int (the same flags): given
# as strings, every frame's call looks them up again, and an enum member is read through Python's enum
# property (together 2 µs a frame, 0.07 s over the six videos of a full-size episode).
RGB24 = VideoFormat("rgb24")
AREA = int(Interpolation.AREA)


class VideoWriter:
    """Stream RGB frames (and optionally mono audio) into an H.264 (+AAC) MP4.

    Parameters
    ----------
    path : output ``.mp4`` file.
    width, height : frame size in pixels (even numbers).
    fps : frame rate.
    audio_rate : sample rate of a mono AAC track, or None for video only.
    crf : x264 constant rate factor.
    """

    def __init__(self, path: str | Path, width: int, height: int, fps: float = 20.0,
                 audio_rate: int | None = None, crf: int = 23) -> None:
        if width % 2 or height % 2:
            raise RobotaskError(f"video size {width}x{height}: width and height must be even (yuv420p)")
        self.container = av.open(str(path), "w", options={"movflags": "+faststart"})
        self.video = self.container.add_stream("libx264", rate=Fraction(fps).limit_denominator(1000))
        self.video.width, self.video.height, self.video.pix_fmt = width, height, "yuv420p"
        self.video.options = {"preset": "ultrafast", "crf": str(crf), "tune": "zerolatency"}
        self.video.codec_context.thread_count = 1
        self.audio = None
        if audio_rate:
            self.audio = self.container.add_stream("aac", rate=int(audio_rate))
            self.audio.layout = "mono"
        self._n_video = 0
        self._started = False  # a packet was muxed (so the header is written)
        self._shape = (height, width, 3)
        self._frame: av.VideoFrame | None = None  # reused input frame, made on the first write
        self._pixels: np.ndarray | None = None  # its pixels as an array (rows may be padded)
        self._skip_audio = AAC_PRIMING if audio_rate else 0  # so decoded sample k = written sample k

    def write_frames(self, frames: np.ndarray) -> None:
        """Encode a chunk of RGB uint8 frames of shape (c, height, width, 3)."""
        for img in frames:
            self.mux(self._encode(img))

    def encode_frames(self, frames: np.ndarray) -> list:
        """Encode a chunk of frames like ``write_frames`` but return the packets instead of muxing them.

        The caller passes them to ``mux`` later, in the order ``write_frames`` would have muxed them
        (the encoders do not depend on the muxer, so the file is the same bytes).
        """
        return [packet for img in frames for packet in self._encode(img)]

    def mux(self, packets: list) -> None:
        """Mux packets from ``encode_frames`` / ``encode_audio`` (the first packet writes the file header)."""
        if packets:
            self._started = True
            self.container.mux(packets)

    def mux_chunks(self, video: list[list], audio: list[list]) -> None:
        """Mux chunk after chunk its video packets, then its audio packets (as alternating
        ``write_frames`` and ``write_audio`` calls would)."""
        for chunk_video, chunk_audio in zip(video, audio, strict=True):
            self.mux(chunk_video)
            self.mux(chunk_audio)

    def _encode(self, img: np.ndarray) -> list:
        """Encode one frame; the next frame number is its pts.

        A frame of the writer's size is copied into one reused RGB frame (the encoder converts it to
        a new yuv420p frame at once and keeps no reference to it); others go through
        ``VideoFrame.from_ndarray`` (which checks them; the encoder rescales other sizes).
        """
        if isinstance(img, np.ndarray) and img.dtype == np.uint8 and img.shape == self._shape:
            if self._frame is None:
                self._frame = av.VideoFrame(self._shape[1], self._shape[0], "rgb24")
                plane = self._frame.planes[0]
                self._pixels = np.ndarray(self._shape, np.uint8, buffer=plane, strides=(plane.line_size, 3, 1))
            self._pixels[...] = img
            frame = self._frame
        else:
            frame = av.VideoFrame.from_ndarray(np.ascontiguousarray(img), format="rgb24")
        frame.pts = self._n_video
        self._n_video += 1
        return self.video.encode(frame)

    def write_audio(self, samples: np.ndarray) -> None:
        """Encode a chunk of mono float samples in [-1, 1]."""
        self.mux(self.encode_audio(samples))

    def encode_audio(self, samples: np.ndarray) -> list:
        """Encode a chunk of samples like ``write_audio`` but return the packets (see ``encode_frames``).

        It may run on another thread than the video encoding. Before the header is written, the audio
        encoder is opened the way writing the header would open it.
        """
        if self.audio is None:
            raise RobotaskError("VideoWriter.write_audio: the writer was opened without audio_rate")
        data = np.clip(np.asarray(samples, dtype=np.float32), -1.0, 1.0).reshape(-1)
        if self._skip_audio:
            cut = min(self._skip_audio, data.size)
            data, self._skip_audio = data[cut:], self._skip_audio - cut
            if not data.size:
                return []
        data = data.reshape(1, -1)
        frame = av.AudioFrame.from_ndarray(np.ascontiguousarray(data), format="fltp", layout="mono")
        frame.sample_rate = self.audio.rate
        ctx = self.audio.codec_context
        if not self._started and not ctx.is_open:  # as OutputContainer.start_encoding does
            for key, value in self.container.options.items():
                ctx.options.setdefault(key, value)
            ctx.open()
        return self.audio.encode(frame)

    def close(self) -> None:
        """Flush both encoders and finish the file."""
        self.mux(self.video.encode(None))
        if self.audio is not None:
            self.mux(self.audio.encode(None))
        self.container.close()

    def __enter__(self) -> VideoWriter:
        return self

    def __exit__(self, exc_type, exc, tb) -> None:
        if exc_type is None:
            self.close()
        else:
            self.container.close()


def _open(path: str | Path) -> av.container.InputContainer:
    """Open a media file for reading, or raise RobotaskError naming it."""
    path = Path(path)
    if not path.is_file():
        raise RobotaskError(f"{path}: video file not found")
    try:
        return av.open(str(path))
    except av.error.FFmpegError as exc:
        raise RobotaskError(f"{path}: not a readable media file ({exc})") from None


def video_fps(path: str | Path) -> float:
    """Average frame rate of the first video stream of ``path``."""
    with _open(path) as container:
        if not container.streams.video:
            raise RobotaskError(f"{path}: no video stream")
        rate = container.streams.video[0].average_rate or container.streams.video[0].guessed_rate
        return float(rate) if rate else float("nan")


def iter_video_frames(path: str | Path, size: int, n_frames: int, fill: str = "repeat",
                      width: int | None = None, report: dict | None = None) -> Iterator[np.ndarray | None]:
    """Yield exactly ``n_frames`` RGB uint8 frames (size, size, 3), resized in the decoder (AREA).

    One :class:`av.video.reformatter.VideoReformatter` serves the whole stream (``frame.reformat``
    would build a new scaler for every frame); the frames are bit-identical.

    Parameters
    ----------
    path : MP4 file; frame i of the video is annotation frame i.
    size : output height (and width unless ``width`` is given) in pixels.
    n_frames : frames to yield.
    fill : what a missing, unreadable or short video yields in place of the frames it lacks:
        ``"repeat"`` the last decoded frame (the original's behaviour; black if none decoded),
        ``"zeros"`` black frames, ``"none"`` ``None`` (so callers can write zero features, as the
        original does for a missing file).
    width : output width; default ``size``.
    report : if a dict is given, it receives ``decoded`` (frames decoded), ``expected`` and ``error``
        (why decoding stopped, or None) and no warning is issued: the caller reports. Otherwise a
        warning names the file and the number of missing frames.
    """
    if fill not in FILL_MODES:
        raise RobotaskError(f"iter_video_frames: fill={fill!r}; expected one of {FILL_MODES}")
    width = int(width or size)
    state = {"decoded": 0, "expected": int(n_frames), "error": None, "last": None}
    yield from _decode_frames(path, int(size), width, n_frames, state)
    n_done, last = state["decoded"], state["last"]
    _report_decoding(path, state, n_frames, report, f"; the remaining {n_frames - n_done} are filled ({fill})")
    zeros = np.zeros((int(size), width, 3), np.uint8)
    for _ in range(n_frames - n_done):
        if fill == "none":
            yield None
        elif fill == "zeros" or last is None:
            yield zeros
        else:
            yield last


def _decode_frames(path: str | Path, size: int, width: int, n_frames: int, state: dict) -> Iterator[np.ndarray]:
    """Decode up to ``n_frames`` frames through one shared reformatter; counts and errors go to ``state``."""
    for frame in _scaled_frames(path, size, width, n_frames, state):
        state["last"] = frame.to_ndarray()
        yield state["last"]


def read_video_chunks(path: str | Path, size: int, n_frames: int, chunk: int,
                      report: dict | None = None) -> Iterator[np.ndarray]:
    """Decode up to ``n_frames`` frames as :func:`iter_video_frames` does, ``chunk`` at a time.

    Yields (c, size, size, 3) uint8 blocks of consecutive frames (c = ``chunk`` but the last), in
    one buffer that the next block overwrites: copy a block to keep it. The pixels are copied from the
    scaler's output straight into that buffer (no array per frame). Frames a short or unreadable
    video lacks are not yielded; ``report`` (if given) receives ``decoded``, ``expected`` and
    ``error`` as in :func:`iter_video_frames`, and no warning is issued.
    """
    state = {"decoded": 0, "expected": int(n_frames), "error": None, "last": None}
    size, row = int(size), 3 * int(size)
    buf = np.empty((max(1, int(chunk)), size, size, 3), np.uint8)
    flat = buf.reshape(len(buf), size, row)
    whole = buf.reshape(len(buf), size * row)
    filled = 0
    for frame in _scaled_frames(path, size, size, n_frames, state):
        plane = frame.planes[0]  # rows of line_size bytes, the first 3·size of them pixels
        if plane.line_size == row:  # rows without padding: the plane's bytes are the frame's pixels
            whole[filled] = plane
        else:
            flat[filled] = np.frombuffer(plane, np.uint8).reshape(size, plane.line_size)[:, :row]
        filled += 1
        if filled == len(buf):
            yield buf
            filled = 0
    if filled:
        yield buf[:filled]
    _report_decoding(path, state, n_frames, report)


def _report_decoding(path: str | Path, state: dict, n_frames: int, report: dict | None, filled: str = "") -> None:
    """Hand the decoding's counts and error to ``report``; without one, warn (at the caller of the reading
    generator) when frames are missing, ``filled`` saying what takes their place."""
    if report is not None:
        report.update({k: state[k] for k in ("decoded", "expected", "error")})
    elif state["decoded"] < n_frames:
        why = f" ({state['error']})" if state["error"] else ""
        warnings.warn(f"{path}: decoded {state['decoded']} of {n_frames} frames{why}{filled}", stacklevel=3)


def _scaled_frames(path: str | Path, size: int, width: int, n_frames: int, state: dict) -> Iterator[av.VideoFrame]:
    """Up to ``n_frames`` decoded frames scaled to RGB (width × size) by one shared reformatter."""
    try:
        container = _open(path)
    except RobotaskError as exc:
        state["error"] = str(exc)
        return
    with container:
        if not container.streams.video:
            raise RobotaskError(f"{path}: no video stream")
        stream = container.streams.video[0]
        stream.thread_type = DECODE_THREAD_TYPE
        scaler = VideoReformatter()
        try:
            for frame in container.decode(stream):
                if state["decoded"] >= n_frames:
                    break
                scaled = scaler.reformat(frame, width=width, height=size, format=RGB24, interpolation=AREA,
                                         threads=SCALER_THREADS)
                state["decoded"] += 1
                yield scaled
        except av.error.FFmpegError as exc:
            state["error"] = f"decoding stopped: {exc}"


def read_audio(path: str | Path, sample_rate: int = 16000) -> tuple[np.ndarray, int] | None:
    """Decode the first audio stream of ``path`` to mono float32 at ``sample_rate``.

    Returns None with a warning when the file is missing or has no audio stream (the original
    then writes zero audio features). NaN/inf samples become 0. A decoded frame that is already mono
    float at ``sample_rate`` (the episodes' AAC track) is taken as it is: the resampler would only
    copy it, one filter-graph pass per frame; its samples are read from its plane without the
    stacking of ``to_ndarray`` (a third of the reading's time).
    """
    path = Path(path)
    if not path.is_file():
        warnings.warn(f"{path}: audio file not found; no audio", stacklevel=2)
        return None
    with _open(path) as container:
        if not container.streams.audio:
            warnings.warn(f"{path}: no audio stream; no audio", stacklevel=2)
            return None
        stream = container.streams.audio[0]
        resampler = av.AudioResampler(format="flt", layout="mono", rate=int(sample_rate))
        chunks: list[np.ndarray] = []
        try:
            for frame in container.decode(stream):
                if _mono_float_at(frame, sample_rate):  # its one plane's first samples (to_ndarray's values)
                    chunks.append(np.frombuffer(frame.planes[0], np.float32, count=frame.samples))
                    continue
                for out in resampler.resample(frame):
                    chunks.append(out.to_ndarray().reshape(-1))
        except av.error.FFmpegError as exc:
            warnings.warn(f"{path}: audio decoding stopped early ({exc})", stacklevel=2)
        for out in resampler.resample(None):
            chunks.append(out.to_ndarray().reshape(-1))
    audio = np.concatenate(chunks).astype(np.float32, copy=False) if chunks else np.zeros(0, np.float32)
    return np.nan_to_num(audio, copy=False, nan=0.0, posinf=0.0, neginf=0.0), int(sample_rate)


def _mono_float_at(frame: av.AudioFrame, sample_rate: int) -> bool:
    """True when ``frame`` is one channel of 32-bit floats at ``sample_rate`` (what ``read_audio`` returns)."""
    return (frame.format.name in ("flt", "fltp") and frame.layout.nb_channels == 1
            and frame.sample_rate == int(sample_rate))
