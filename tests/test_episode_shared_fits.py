"""Fits that two tasks share (``TaskSpec.fit_key``) kept in the cache for other processes (``suite.shared_fits``)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from test_episode_tasks import FAST, fake_window_set  # the tests' small WindowSet on which every task runs

from robotask.episode.suite import execution as E
from robotask.episode.suite.fit import standardize
from robotask.episode.suite.shared_fits import fit_entry
from robotask.episode.tasks.protocols import get_protocol
from robotask.episode.tasks.registry import TASKS, split

PAIR = ("cross_modal_retrieval", "modality_reconstruction")  # fit_key "motion_to_visual"


def _files(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


def _counting_runners(monkeypatch) -> list[str]:
    calls: list[str] = []
    for head, runner in list(E.HEAD_RUNNERS.items()):
        monkeypatch.setitem(E.HEAD_RUNNERS, head, lambda *a, _run=runner, _head=head: calls.append(_head) or _run(*a))
    return calls


def test_a_shared_fit_runs_once_and_every_file_is_what_each_task_writes_alone(tmp_path, monkeypatch):
    """Two separate runs (two task pages) of the tasks with one fit_key: the second reads both heads' fits
    from the cache, and every file both write (metrics, predictions, model files) has the bytes that each
    task's own fits give."""
    monkeypatch.setenv("ROBOTASK_CACHE", str(tmp_path / "cache"))
    proto, shared = get_protocol("improved"), replace(FAST, shared_fits=True)
    calls = _counting_runners(monkeypatch)
    results = {t: E.run_task(t, fake_window_set(), proto, ["minimal", "mlp"], tmp_path / "shared", shared)
               for t in PAIR}
    assert sorted(calls) == ["minimal", "mlp"]
    assert len(list((tmp_path / "cache" / "fits").glob("motion_to_visual-*.npz"))) == 2
    calls.clear()
    alone = {t: E.run_task(t, fake_window_set(), proto, ["minimal", "mlp"], tmp_path / "alone", FAST) for t in PAIR}
    assert sorted(calls) == ["minimal", "minimal", "mlp", "mlp"]
    shared_files, alone_files = _files(tmp_path / "shared"), _files(tmp_path / "alone")
    assert any(name.endswith("model.pt") for name in shared_files)
    assert any(name.endswith("model.npz") for name in shared_files)
    assert shared_files == alone_files
    for t in PAIR:
        assert results[t].summary() == alone[t].summary()


def test_a_task_without_a_fit_key_keeps_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("ROBOTASK_CACHE", str(tmp_path / "cache"))
    E.run_task("timeline_action", fake_window_set(), get_protocol("original"), ["minimal"], None,
               replace(FAST, shared_fits=True))
    assert not (tmp_path / "cache" / "fits").exists()


def test_the_entry_follows_the_inputs_the_protocol_the_settings_and_the_head():
    ws = fake_window_set()
    entries = set()
    for name in ("original", "improved"):
        proto = get_protocol(name)
        data = split(TASKS["cross_modal_retrieval"].build(ws, proto), proto, with_validation=True)
        z = standardize(data, proto)
        entry = fit_entry("motion_to_visual", "mlp", data, z, proto, FAST)
        assert entry == fit_entry("motion_to_visual", "mlp", data, z.copy(), proto, FAST)
        other = z.copy()
        other[0, 0] += 1.0
        entries |= {entry, fit_entry("motion_to_visual", "mlp", data, other, proto, FAST),
                    fit_entry("motion_to_visual", "minimal", data, z, proto, FAST),
                    fit_entry("motion_to_visual", "mlp", data, z, proto, replace(FAST, softmax_epochs=61))}
        data.test = data.test[1:]
        entries.add(fit_entry("motion_to_visual", "mlp", data, z, proto, FAST))
    assert len(entries) == 10
