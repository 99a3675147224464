"""The import closure that keys the window cache: the code a cached result depends on, and no more."""

from __future__ import annotations

from robotask import sources


def names(files):
    return {sources.module_name(p) for p in files}


def test_the_window_features_depend_on_the_feature_code_only():
    closure = names(sources.source_closure("robotask.episode.features.windowset"))
    assert {"robotask.episode.features.windows", "robotask.episode.files.loader", "robotask.episode.features.perframe",
            "robotask.episode.features.extractors", "robotask.episode.files.captions", "robotask.cache"} <= closure
    assert not closure & {"robotask.episode.models.minimal", "robotask.episode.models.mlp",
                          "robotask.episode.suite.execution",
                          "robotask.episode.report.figures_tasks", "robotask.episode.report.phrases"}


def test_the_closure_follows_chains_and_in_function_imports():
    assert "robotask.io" in sources.imported_modules("robotask.plots")  # imported inside a function
    direct = sources.imported_modules("robotask.episode.features.windowset")
    assert "robotask.episode.features.extractors" not in direct  # reached through perframe only
    closure = names(sources.source_closure("robotask.episode.features.windowset"))
    assert "robotask.episode.features.extractors" in closure


def test_module_names_round_trip():
    for name, path in sources.modules().items():
        assert sources.module_name(path) == name
