"""The MLP's compiled input-block step: built once per source and compiler, clear errors, checked inputs."""

from __future__ import annotations

import pytest

from robotask.episode import mlp_kernel
from robotask.errors import RobotaskError


@pytest.fixture
def fresh_kernel(tmp_path, monkeypatch):
    """An empty cache and no library loaded yet in this process."""
    monkeypatch.setenv("ROBOTASK_CACHE", str(tmp_path))
    mlp_kernel.kernel.cache_clear()
    yield tmp_path
    mlp_kernel.kernel.cache_clear()


def test_the_library_is_built_once_under_a_key_of_source_compiler_and_flags(fresh_kernel):
    mlp_kernel.kernel()
    built = list((fresh_kernel / "native").glob("mlp_kernel-*.so"))
    assert len(built) == 1 and built[0] == mlp_kernel.library_path(mlp_kernel.compiler())
    stamp = built[0].stat().st_mtime_ns
    mlp_kernel.kernel.cache_clear()
    mlp_kernel.kernel()  # a second process finds it
    assert built[0].stat().st_mtime_ns == stamp
    assert [p.name for p in (fresh_kernel / "native").iterdir()] == [built[0].name]  # no build folder left


def test_a_missing_compiler_names_what_to_install(fresh_kernel, monkeypatch):
    monkeypatch.setenv("CC", "no-such-cc")
    with pytest.raises(RobotaskError, match="needs a C compiler: 'no-such-cc'.*install gcc"):
        mlp_kernel.kernel()


def test_a_failing_compiler_is_reported_with_the_source_name(fresh_kernel, monkeypatch):
    monkeypatch.setenv("CC", "false")
    with pytest.raises(RobotaskError, match=r"compiling mlp_kernel\.c with .*false failed \(exit 1\)"):
        mlp_kernel.kernel()
    assert not list((fresh_kernel / "native").glob("*.so"))


def test_arrays_of_the_wrong_type_or_shape_are_refused_before_the_call():
    import torch

    h, d = 4, 10
    arrays = [torch.zeros(h, d) for _ in range(5)] + [torch.zeros(d) for _ in range(6)]
    arrays += [torch.zeros(h), torch.zeros(h, mlp_kernel.LANES)]
    hyper = (1.0, 0.9, 0.999, 1e-3, 1.0, 1e-8)
    mlp_kernel.input_block_step(arrays, hyper)  # the right ones run
    for i, bad in ((0, torch.zeros(h, d, dtype=torch.float64)), (5, torch.zeros(d + 1)),
                   (2, torch.zeros(d, h).t())):
        wrong = list(arrays)
        wrong[i] = bad
        with pytest.raises(ValueError, match="expected a contiguous float32 array"):
            mlp_kernel.input_block_step(wrong, hyper)


def test_one_step_updates_every_parameter_as_adamw_does():
    """A hand-computed AdamW step (float64) on a tiny block: W, γ, β, the moments, F and W'β'."""
    import torch

    torch.manual_seed(1)
    h, d = 3, 37  # not a multiple of the kernel's blocks or lanes
    w, g, gamma, beta, s = torch.randn(h, d), torch.randn(h, d), torch.rand(d) + 0.5, torch.randn(d), torch.randn(h)
    arrays = [w.clone(), g, torch.zeros(h, d), torch.zeros(h, d), torch.empty(h, d), gamma.clone(), beta.clone()]
    arrays += [torch.zeros(d) for _ in range(4)] + [s, torch.empty(h, mlp_kernel.LANES)]
    lr, wd, b1, b2, eps = 1e-2, 0.1, 0.9, 0.999, 1e-8
    mlp_kernel.input_block_step(arrays, (1 - lr * wd, b1, b2, lr / (1 - b1), (1 - b2) ** 0.5, eps))

    def adamw(p, grad):  # first step from zero moments
        m, v = (1 - b1) * grad, (1 - b2) * grad ** 2
        return p * (1 - lr * wd) - lr / (1 - b1) * m / (v.sqrt() / (1 - b2) ** 0.5 + eps), m, v

    w64, g64, s64 = w.double(), g.double(), s.double()
    gamma_new, *_ = adamw(gamma.double(), (w64 * g64).sum(0))
    beta_new, *_ = adamw(beta.double(), w64.t() @ s64)
    w_new, m, v = adamw(w64, g64 * gamma.double() + s64[:, None] * beta.double())
    for got, want in ((arrays[0], w_new), (arrays[2], m), (arrays[3], v), (arrays[5], gamma_new),
                      (arrays[6], beta_new), (arrays[4], w_new * gamma_new), (arrays[12].sum(1), w_new @ beta_new)):
        assert torch.allclose(got.double(), want, rtol=1e-5, atol=1e-6)


def test_an_unwritable_cache_is_a_clear_error(fresh_kernel, monkeypatch):
    blocker = fresh_kernel / "file"
    blocker.write_text("not a folder")
    monkeypatch.setenv("ROBOTASK_CACHE", str(blocker))
    with pytest.raises(RobotaskError, match="cannot write the compiled MLP kernel to .*ROBOTASK_CACHE"):
        mlp_kernel.kernel()


def _run(fn, arrays, steps=3):
    for t in range(1, steps + 1):
        fn(arrays[0].shape[0], arrays[0].shape[1], *(a.data_ptr() for a in arrays),
           1 - 1e-7, 0.9, 0.999, 1e-3 / (1 - 0.9 ** t), (1 - 0.999 ** t) ** 0.5, 1e-8)
    return b"".join(a.numpy().tobytes() for a in arrays)


def test_the_vector_unit_does_not_change_a_bit(tmp_path):
    """The library (AVX-512, AVX2 or SSE2 as the CPU offers) against a plain SSE2 build of the same source:
    byte-identical after three steps, so the flags keep IEEE arithmetic in a fixed order per lane."""
    import ctypes
    import subprocess

    import torch

    plain = tmp_path / "plain.c"
    plain.write_text(mlp_kernel.SOURCE.read_text().replace("\nVECTOR_CLONES\n", "\n"))
    assert "\nVECTOR_CLONES" not in plain.read_text()
    so = tmp_path / "plain.so"
    subprocess.run([*mlp_kernel.compiler(), *mlp_kernel.FLAGS, str(plain), "-o", str(so), "-lm"], check=True)
    fn = ctypes.CDLL(str(so)).input_block_step
    fn.argtypes = mlp_kernel.kernel().argtypes
    torch.manual_seed(0)
    h, d = 128, 3001
    base = [torch.randn(h, d) * 0.1, torch.randn(h, d), torch.randn(h, d) * 0.01, torch.rand(h, d) * 0.01,
            torch.empty(h, d), torch.rand(d) + 0.5, torch.randn(d), torch.randn(d) * 0.01, torch.rand(d) * 0.01,
            torch.randn(d) * 0.01, torch.rand(d) * 0.01, torch.randn(h), torch.empty(h, mlp_kernel.LANES)]
    base[4].zero_()
    base[12].zero_()
    assert _run(fn, [a.clone() for a in base]) == _run(mlp_kernel.kernel(), [a.clone() for a in base])


def test_the_suite_command_names_a_missing_compiler_before_any_long_work(fresh_kernel, monkeypatch, capsys):
    """`robotask suite --heads mlp` fails at once (before reading the episode, which does not even exist
    here) with the compiler's message; `--heads minimal` needs no compiler."""
    from robotask.cli import main

    monkeypatch.setenv("CC", "no-such-cc")
    missing = fresh_kernel / "no-episode"
    args = ["suite", "--episode", str(missing), "--out", str(fresh_kernel / "out")]
    assert main(args + ["--heads", "minimal,mlp"]) == 2
    err = capsys.readouterr().err
    assert "needs a C compiler: 'no-such-cc'" in err and "Traceback" not in err
    assert main(args + ["--heads", "minimal"]) == 2  # fails on the episode instead
    assert "no-such-cc" not in capsys.readouterr().err


def test_cc_may_carry_words_like_a_shell_variable(fresh_kernel, monkeypatch):
    """CC="env gcc" (a wrapper and the compiler, as CC="ccache gcc" would be) builds; the key differs."""
    monkeypatch.setenv("CC", "env cc")
    words = mlp_kernel.compiler()
    assert words[0].endswith("/env") and words[1:] == ["cc"]
    mlp_kernel.kernel()
    assert mlp_kernel.library_path(words).is_file()
    monkeypatch.delenv("CC")
    assert mlp_kernel.library_path(mlp_kernel.compiler()) != mlp_kernel.library_path(words)


def test_a_damaged_library_in_the_cache_is_built_again(fresh_kernel):
    target = mlp_kernel.library_path(mlp_kernel.compiler())
    target.parent.mkdir(parents=True)
    target.write_bytes(b"not a shared library")
    mlp_kernel.kernel()
    assert target.read_bytes()[:4] == b"\x7fELF"
