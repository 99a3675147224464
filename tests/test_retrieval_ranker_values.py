"""The values, tables and summary records of chapters 06 to 08, and the timed runs chapter 06 calls."""

from __future__ import annotations

from types import SimpleNamespace

import numpy as np
import pandas as pd

from robotask.retrieval import presentation as rp
from robotask.retrieval.protocol import StudyConfig, check_corpus, run_study, run_timed
from robotask.retrieval.rankers import embedding

TOY = pd.DataFrame({"task": ["alpha"] * 3 + ["beta"] * 3 + ["gamma"] * 3, "position": [0, 1, 2] * 3,
                    "text": ["open the red box", "open red box now", "red box open", "close the blue door",
                             "shut blue door", "press the switch", "push the switch", "turn the green knob",
                             "green knob turn"]})
CORPUS = SimpleNamespace(tasks=["a", "b"], texts=["x", "y", "y", "z"])


def test_run_timed_times_each_group_and_keeps_every_row():
    corpus = check_corpus(TOY)
    result, seconds = run_timed(corpus, {"first": ["bm25"], "second": ["char", "word"]}, seed=5, n_trials=3)
    assert list(seconds) == ["first", "second"] and all(s >= 0 for s in seconds.values())
    assert list(result.per_trial["ranker"].unique()) == ["bm25", "char", "word"]
    assert result.config.rankers == ["char", "word"]  # the last group's config and draws
    alone = run_study(corpus, StudyConfig(seed=5, n_trials=3, n_matched_trials=0, rankers=["char", "word"],
                                          save_all_predictions=True), parts=("primary",))
    pd.testing.assert_frame_equal(result.per_trial.iloc[-len(alone.per_trial):].reset_index(drop=True),
                                  alone.per_trial)
    assert len(result.predictions) == 3 * len(alone.predictions) // 2


def test_time_embedding_embeds_once_and_returns_seconds(monkeypatch):
    seen = []
    monkeypatch.setattr(embedding, "embed", lambda texts: seen.append(list(texts)))
    assert embedding.time_embedding(["a", "b"]) >= 0 and seen == [["a", "b"]]


def test_embedding_run_values():
    v = rp.embedding_run_values(CORPUS, ["char", "minilm", "static"], ["minilm", "static"], 2.0,
                                {"lexical": 1.0, "neural": 6.0}, False, 3, 80, 413, 20000)
    assert (v["n_distinct"], v["t_neural"], v["t_lexical"], v["n_permutations_text"]) == (3, 8.0, 1.0, "20,000")
    assert v["neural_names"] == "MiniLM and Static emb. (WordLlama)" and v["left_out"] == "MiniLM+Char"
    assert "8" in v["cost_reading"]


def _summary() -> pd.DataFrame:
    return pd.DataFrame({"ranker": ["char", "minilm"], "label": ["Char", "MiniLM"], "mean": [63.0, 70.0],
                         "p5": [58.0, 64.0], "p95": [68.0, 76.0], "lo": [61.0, 68.0], "hi": [65.0, 72.0]})


def test_embedding_accuracy_and_pair_values_show_dashes_for_what_did_not_run():
    v = rp.embedding_accuracy_values(_summary())
    assert (v["acc_minilm"], v["acc_char"], v["acc_fusion"], v["band_ratio"]) == (70.0, 63.0, "—", 2.5)
    comp = pd.DataFrame([{"a": "minilm", "b": "char", "mean_diff": 7.0, "lo": 5.0, "hi": 9.0, "wins": 70,
                          "ties": 2, "losses": 8}])
    v = rp.embedding_pair_values(comp, 19999)
    assert (v["mc_wins"], v["mc_verdict"], v["p_floor"], v["fusion_verdict"]) == (70, "higher", 5e-05, "—")
    fused = pd.concat([comp, pd.DataFrame([{"a": "minilm", "b": "minilm_char", "mean_diff": 2.0, "lo": 1.0,
                                            "hi": 3.0, "wins": 50, "ties": 0, "losses": 30}])])
    v = rp.embedding_pair_values(fused, 19999)
    assert v["fusion_verdict"] == "lower" and v["fusion_d"].startswith("−2")  # the fusion minus MiniLM


def test_no_overlap_and_opposite_values():
    both = pd.DataFrame({"trial": [0, 0, 1, 1, 1], "task": ["a", "b", "a", "b", "b"], "position": [1, 1, 1, 2, 1],
                         "shared": [0, 0, 0, 0, 2], "correct_minilm": [True, True, True, False, False],
                         "correct_char": [False, True, False, False, True]})
    v = rp.no_overlap_values(both, seed=0)
    assert (v["no_overlap_share"], v["no_overlap_minilm"], v["no_overlap_char"]) == (80.0, 75.0, 25.0)
    assert v["no_overlap_d"].startswith("+50")
    confusions = pd.DataFrame({"ranker": ["char", "minilm"], "to_opposite": [5.0, 20.0],
                               "share_of_errors": [10.0, 60.0]})
    v = rp.opposite_values(confusions, np.float32(0.9), np.float32(0.6))
    assert (v["opp_minilm"], v["opp_char"], v["opp_share"]) == (20.0, 5.0, 60.0)
    assert type(v["cos_opposite"]) is float and v["cos_reading"]


def _intervals() -> pd.DataFrame:
    frame = pd.DataFrame({"ranker": ["bm25", "char"], "label": ["b", "c"], "mean": [58.0, 63.0],
                          "lo": [56.0, 62.0], "hi": [60.0, 64.0], "lo_queries": [57.0, 62.5],
                          "hi_queries": [59.0, 63.5], "lo_galleries": [57.5, 62.8], "hi_galleries": [58.5, 63.2],
                          "p5": [50.0, 55.0], "p95": [65.0, 70.0]})
    return rp.with_widths(frame)


def test_with_widths_and_focus_values():
    intervals = _intervals()
    assert list(intervals.columns[-3:]) == ["width", "width_queries", "width_galleries"]
    assert intervals["width"].tolist() == [4.0, 2.0] and intervals["label"].tolist() == ["BM25", "Char TF-IDF"]
    v = rp.focus_values(intervals)
    assert (v["focus"], v["focus_width"], v["width_min"], v["width_max"]) == ("Char TF-IDF", 2.0, 2.0, 4.0)
    assert rp.focus_values(intervals.iloc[:1])["focus"] == "BM25"


def test_separation_and_ordering_values():
    comp = pd.DataFrame({"a": ["char"], "b": ["bm25"], "p_perm_holm": [0.001], "lo": [0.5], "hi": [1.5]})
    v = rp.separation_values(comp, _intervals(), 0.05, 999)
    assert (v["n_pairs"], v["n_sig"], v["n_overlap_sig"], v["p_floor"]) == (1, 1, 0, 0.001)
    claims = pd.DataFrame({"claim": ["char > bm25", "word > lsa"], "verdict": ["supported", "not resolved"],
                           "wins": [79, 40], "ties": [0, 1], "losses": [1, 39], "p_sign": [1e-20, 0.9],
                           "p_perm_holm": [1e-4, 0.8], "lo": [4.0, -1.0], "hi": [5.0, 1.0]})
    v = rp.ordering_values(claims, {"wins": 79, "ties": 1, "losses": 0}, 0.05)
    assert (v["n_supported"], v["n_not_resolved"], v["n_contradicted"], v["n_claims"]) == (1, 1, 0, 2)
    assert (v["paper_wins"], v["paper_ties"], v["paper_galleries"], v["cb_ran"]) == (79, "1 tie", 80, "")
    assert v["cb_wins"] == "79"
    without = rp.ordering_values(claims.iloc[1:], {"wins": 79, "ties": 1, "losses": 0}, 0.05)
    assert "leaves out" in without["cb_ran"] and without["cb_wins"] == "—"


def test_tables_of_chapters_06_and_08():
    summary = pd.DataFrame({"ranker": ["char", "minilm"], "label": ["c", "m"], "mean": [63.0, 70.0],
                            "sd": [1.0, 1.0], "p5": [1.0, 1.0], "p95": [2.0, 2.0], "min": [0.0, 0.0],
                            "max": [3.0, 3.0]})
    ci = pd.DataFrame({"ranker": ["char", "minilm"], "mean": [63.0, 70.0], "lo": [62.0, 69.0], "hi": [64.0, 71.0]})
    merged = rp.with_in_paper(summary, ci)
    assert merged.columns[2] == "in paper" and merged["in paper"].tolist() == ["yes", "not in the paper"]
    assert rp.in_paper_view(merged)["label"].tolist() == ["Char TF-IDF", "MiniLM"]
    comp = pd.DataFrame({"a": ["minilm"], "b": ["char"]})
    assert rp.pair_labels(comp) == ["MiniLM − Char TF-IDF"]
    assert rp.starred_labels(pd.Series(["char", "minilm"])) == ["Char TF-IDF", "MiniLM *"]
    table = pd.DataFrame({"perturbation": ["direction_swap", "spelling"], "ranker": ["char", "char"],
                          "label": ["Char TF-IDF"] * 2, "n_per_trial": [10, 50], "original": [60.0, 62.0],
                          "perturbed": [40.0, 55.0], "change": [-20.0, -7.0], "lo": [-25.0, -9.0],
                          "hi": [-15.0, -5.0], "wins": [1, 2], "ties": [0, 0], "losses": [9, 8],
                          "p_perm": [0.01, 0.02], "stays_source": [30.0, np.nan]})
    assert rp.perturbation_view(table)["perturbation"].tolist() == ["direction swap", "spelling"]
    flip = rp.flip_table(table)
    assert len(flip) == 1 and "stays on source task (%)" in flip.columns and flip.index.tolist() == [0]


def test_perturbation_and_swap_values():
    rows = [("spelling", r, c, c - 1, c + 1) for r, c in (("char", -1.0), ("word", -8.0))]
    rows += [("direction_swap", r, c, c - 1, c + 1) for r, c in (("char", 5.0), ("word", -2.0))]
    table = pd.DataFrame(rows, columns=["perturbation", "ranker", "change", "lo", "hi"]).assign(
        original=[60.0, 58.0, 40.0, 45.0], perturbed=[59.0, 50.0, 45.0, 43.0], stays_source=[0, 0, 20.0, 30.0])
    v = rp.perturbations_values(table, ["spelling", "inflection"])
    assert v["spelling_big_ranker"] == "Word TF-IDF" and v["inflection_signs"] == "—"
    assert v["spelling_char"].startswith("−1") and v["spelling_bm25"] == "—"
    v = rp.swap_values(table, pd.Series({"char": 70.0, "word": 90.0}), {"original": 0.3, "swapped": 0.5,
                                                                          "share_closer": 60.0})
    assert (v["follow_top"], v["rise_ranker"], v["rise_from"], v["rise_to"]) == ("Char TF-IDF", "Char TF-IDF",
                                                                                 40.0, 45.0)
    assert v["n_rise"] == "1 of 2 rankers" and v["no_opp_max"].startswith("90")
    missing = rp.swap_values(table, None, None)
    assert missing["follow_top"] == "—" and missing["rise_from"] != missing["rise_from"]


def test_perturbation_run_values_name_what_was_left_out():
    per_query = pd.DataFrame({"query_id": [1, 2, 2]})
    v = rp.perturbation_run_values(CORPUS, per_query, ["char", "word", "bm25"], ["spelling"],
                                   ["spelling", "inflection"], 80, 413)
    assert v["left_out"] == "inflection, MiniLM" and v["n_queries"] == 2 and v["n_texts"] == 4
