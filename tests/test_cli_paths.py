"""A path typed on the command line is the caller's: relative to the working directory, for every command."""

from __future__ import annotations

from pathlib import Path

import pytest

from robotask import cli, paths
from robotask.episode.features import cli as features_cli


def test_from_caller_takes_the_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert paths.from_caller("feat") == str(tmp_path / "feat")
    assert paths.from_caller(str(tmp_path / "x")) == str(tmp_path / "x")
    assert paths.from_caller("") == ""


@pytest.mark.parametrize("argv, dests", [
    (["features", "--collection", "col", "--out", "feat"], ("collection", "out")),
    (["features", "ep", "--out", "feat"], ("episode", "out")),
    (["suite", "--episode", "ep", "--out", "o"], ("episode", "out")),
    (["suite", "--collection", "col", "--features", "f", "--out", "o"], ("collection", "features", "out")),
    (["synth", "--out", "ep"], ("out",)),
    (["synth-collection", "--out", "col", "--episodes", "2"], ("out",)),
    (["retrieval", "--corpus", "c.csv", "--out", "r"], ("corpus", "out")),
    (["extract", "--rlbench", "rl", "--out", "d"], ("rlbench", "out")),
])
def test_every_path_option_is_absolute_from_the_caller(tmp_path, monkeypatch, argv, dests):
    monkeypatch.chdir(tmp_path)
    args = cli.build_parser(argv[0]).parse_args(argv)
    for dest in dests:
        value = Path(getattr(args, dest))
        assert value.is_absolute() and value.parent == tmp_path, (dest, value)


def test_features_collection_hands_the_callers_folder_to_the_workers(tmp_path, monkeypatch):
    """The case that wrote feat/ inside the checkout: the collection run receives the caller's path."""
    seen = {}

    class Run:
        import pandas as pd
        episodes = pd.DataFrame({"status": []})
        failures = pd.DataFrame()
        wall_seconds = 0.0

    class Collection:
        ids: list = []
        problems: list = []

    def fake_extract(collection, out, options, scheduler=None, workers=None):
        seen["out"] = out
        return Run()

    monkeypatch.setattr("robotask.episode.files.manifest.load_collection", lambda path: Collection())
    monkeypatch.setattr("robotask.episode.features.distributed.extract_collection", fake_extract)
    monkeypatch.chdir(tmp_path)
    args = cli.build_parser("features").parse_args(["features", "--collection", "col", "--out", "feat"])
    assert features_cli._cli_features(args) == 0
    assert Path(seen["out"]) == tmp_path / "feat"
    assert not (paths.ROOT / "feat").exists()


def test_extract_default_out_is_the_repository_data_folder(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    args = cli.build_parser("extract").parse_args(["extract", "--rlbench", "rl"])
    assert Path(args.out) == paths.RLBENCH_DATA


def test_the_shipped_corpus_gives_the_same_result_named_or_default(tmp_path):
    """One rule for repeated texts: a corpus under data/ is read as authored, default or named."""
    from robotask.retrieval.protocol.study import cli_main

    outs = {}
    for name, corpus in (("default", ""), ("named", str(paths.RLBENCH_DATA / "corpus.csv"))):
        out = tmp_path / name
        args = cli.build_parser("retrieval").parse_args(
            ["retrieval", "--trials", "3", "--out", str(out)] + (["--corpus", corpus] if corpus else []))
        assert cli_main(args) == 0
        outs[name] = {f: (out / f).read_bytes() for f in ("draws.csv", "per_trial.csv", "predictions.csv")}
    assert outs["default"] == outs["named"]


def test_a_corpus_a_user_brings_still_refuses_a_repeated_text(tmp_path):
    from robotask.errors import RobotaskError
    from robotask.retrieval.protocol.draws import load_study_corpus

    corpus = tmp_path / "c.csv"
    corpus.write_text("task,position,text\na,0,open it\na,1,open it\na,2,open that\nb,0,close it\nb,1,shut it\n")
    with pytest.raises(RobotaskError, match="repeats the text"):
        load_study_corpus(str(corpus))
