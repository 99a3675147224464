"""The scaling studies: wording budget, library size, phrases; the static ranker in the registry and CLI."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest

from robotask.retrieval.rankers.registry import PAPER_RANKERS, RANKERS
from robotask.retrieval.scaling import budget, phrases, pool


def _frame(n_tasks: int = 4, n_texts: int = 6) -> pd.DataFrame:
    words = ["open", "close", "push", "lift", "wipe", "stack", "pour", "turn"]
    rows = [(f"t{j}", f"{words[j]} the thing number {i} {words[j]}") for j in range(n_tasks) for i in range(n_texts)]
    return pd.DataFrame(rows, columns=["task", "text"])


def test_static_registered_outside_paper_defaults():
    assert "static" in RANKERS and "static" not in PAPER_RANKERS
    assert PAPER_RANKERS == ("bm25", "word", "char", "word_char", "lsa")


def test_budget_matched_and_deterministic():
    frame = pd.concat([_frame(), pd.DataFrame({"task": ["small"], "text": ["tiny"]})])
    a = budget.budget_curve(frame, [1, 2, 4], ["bm25", "char"], n_trials=3, seed=1)
    b = budget.budget_curve(frame, [1, 2, 4], ["bm25", "char"], n_trials=3, seed=1)
    pd.testing.assert_frame_equal(a, b)
    assert a.groupby("trial")["n_queries"].nunique().eq(1).all()  # same queries for every k
    assert (a["n_queries"] == 4 * (6 - 4)).all()
    assert set(budget.plateau_k(a)) <= {1, 2, 4}


def test_pool_size_curve_and_slope():
    frames = {"a": _frame(), "b": pd.DataFrame({"task": ["x", "y"], "text": ["lone one", "lone two"]})}
    pooled = pool.pool(frames)
    assert pooled["task"].str.contains("/").all() and pooled["task"].nunique() == 6
    sizes = pool.log_sizes(2, 6, 3)
    curve = pool.size_curve(pooled, sizes, ["bm25"], n_draws=2, seed=0)
    assert set(curve["n"]) == set(sizes) and curve["n_queries"].gt(0).all()
    assert set(pool.slope_per_doubling(curve).index) == {"bm25"}


def test_phrases():
    assert phrases.order_change({1: "BM25", 2: "BM25"}) == "does not change"
    assert phrases.order_change({1: "BM25", 2: "Char TF-IDF"}) == "changes"
    assert phrases.order_change({1: "BM25", 2: "not resolved"}) == "not resolved"
    assert phrases.order_change({1: "not resolved"}) == "not resolved"
    assert phrases.leader({"a": 1.0, "b": 2.0}) == "b"


def test_cli_robocasa_means_from_committed_csv(capsys):
    from robotask.cli import main

    assert main(["retrieval", "--corpus", "data/robocasa/corpus.csv", "--trials", "80", "--rankers", "bm25,char"]) == 0
    out = capsys.readouterr().out
    assert "32 tasks, 128 descriptions, 80 galleries" in out
    assert "93.9" in out and "95.5" in out  # BM25, Char TF-IDF means (seed 413)


def test_usable_ks_and_extras():
    from robotask.retrieval.scaling import claims, ranker_cost, seen_unseen

    frame = _frame(n_tasks=4, n_texts=6)
    assert budget.usable_ks(frame, [1, 2, 4, 8], min_tasks=4) == [1, 2, 4]
    split = frame.assign(split=["seen"] * 4 + ["unseen"] * 2 + ["seen"] * 4 + ["unseen"] * 2
                         + ["seen"] * 4 + ["unseen"] * 2 + ["seen"] * 4 + ["unseen"] * 2)
    su, queries = seen_unseen.seen_unseen(split, ["bm25"], n_trials=2, seed=0)
    assert set(su["queries"]) == {"seen", "unseen"} and su["accuracy"].between(0, 100).all()
    by_trial = 100 * queries.groupby(["trial", "ranker", "arm"])["correct"].mean()  # the same accuracies
    assert np.allclose(by_trial.to_numpy(), su.set_index(["trial", "ranker", "queries"])["accuracy"].sort_index())
    assert queries.groupby("trial")["query_id"].nunique().eq(4 * (3 + 2)).all()  # one seen template indexed
    per_trial = pd.DataFrame({"trial": [0, 0, 1, 1], "ranker": ["a", "b", "a", "b"], "accuracy": [2, 1, 1, 1]})
    assert claims.paired_wins(per_trial, "a", "b") == (1, 2)
    cost = ranker_cost.cost(frame["text"].tolist()[:4], frame["text"].tolist(), ["bm25"])
    assert cost["queries_per_second"].gt(0).all()


def test_one_wording_equals_the_protocol_and_macro_micro_reads_its_galleries():
    from robotask.retrieval.protocol.draws import check_corpus
    from robotask.retrieval.protocol.study import StudyConfig, run_study
    from robotask.retrieval.scaling import averages
    from robotask.retrieval.scaling.phrases import disagree_where

    frame = pd.concat([_frame(), pd.DataFrame({"task": ["t0", "t1"], "text": ["shared text", "shared text"]})])
    corpus = check_corpus(frame, 2, "test")
    one = averages.one_wording(corpus, ["bm25", "char"], n_trials=4, seed=3)
    ref = run_study(corpus, StudyConfig(seed=3, n_trials=4, n_matched_trials=0, rankers=["bm25", "char"]),
                    parts=("primary",)).per_trial
    ref = ref[ref["policy"] == "primary"].reset_index(drop=True)
    pd.testing.assert_series_equal(one["accuracy"], ref["accuracy"])  # the same galleries, the same policy
    assert (one["n_excluded"] == ref["n_excluded"]).all() and (one["n_excluded"] > 0).all()
    kept: list[pd.DataFrame] = []
    averages.one_wording(check_corpus(_frame(), 2, "t"), ["bm25"], 2, 0, outcomes=kept)
    mm = averages.macro_micro(kept[0], ["bm25"], seed=0)
    # balanced tasks: macro = micro in every gallery and every replicate (resampling within a task keeps its weight)
    assert mm["difference"].iloc[0] == pytest.approx(0.0, abs=1e-9)
    assert mm["low"].iloc[0] == pytest.approx(0.0, abs=1e-9) and mm["high"].iloc[0] == pytest.approx(0.0, abs=1e-9)
    assert disagree_where(mm.assign(library="a"), {"a": "A"}) == "no library"


def test_chapter_listed_after_transfer():
    from robotask.book.chapters import CHAPTERS

    ids = [c.id for c in CHAPTERS]
    assert ids.index("09_libraries") == ids.index("09_transfer") + 1


def test_shape_phrases():
    from robotask.words import PairedInterval

    assert phrases.leaders_by({1: "not resolved", 2: "Char TF-IDF", 4: "Char TF-IDF", 8: "BM25"}) == (
        "not resolved at k = 1, Char TF-IDF at k = 2–4, BM25 at k = 8")
    assert phrases.leaders_by({8: "Char TF-IDF", 352: "Char TF-IDF"}, "n") == "Char TF-IDF at n = 8–352"
    assert phrases.resolved_leader("char", PairedInterval(1.0, 0.2, 1.8, 20, 0.95)) == "Char TF-IDF"
    assert phrases.resolved_leader("char", PairedInterval(0.1, -0.2, 0.4, 20, 0.95)) == "not resolved"
    assert phrases.share_phrase(0.6) == "most" and phrases.share_phrase(0.4) == "less than half"
    assert phrases.span(pd.Series([2, 8, 4])) == "k = 2 to 8" and phrases.span([4, 4]) == "k = 4"
    mm = pd.DataFrame({"library": ["a", "a", "b", "c"], "low": [-0.1, -2.0, -0.5, 7.0], "high": [0.4, -1.0, 1.5, 9.0]})
    assert phrases.disagree_where(mm, {"a": "A", "c": "C"}) == "A and C"
    assert phrases.disagree_where(mm[mm["library"] == "b"], {}) == "no library"


def test_curve_tables():
    from robotask.retrieval.scaling import tables

    curve = pd.DataFrame({"trial": [0, 0, 1, 1], "k": [1, 2, 1, 2], "ranker": ["char"] * 4,
                          "accuracy": [50.0, 60.0, 40.0, 70.0]})
    cells = tables.band_table(curve, "k")
    assert list(cells.columns) == ["Ranker", "At k = 1", "At k = 2"] and cells.loc[0, "At k = 1"] == "45.0 (40.5–49.5)"
    size = pd.DataFrame({"n": [2, 4, 8, 2, 4, 8], "draw": [0, 0, 0, 1, 1, 1], "ranker": ["bm25"] * 6,
                         "accuracy": [90.0, 80.0, 70.0, 90.0, 85.0, 80.0]})
    assert list(tables.series_slopes(size)["bm25"]) == pytest.approx([-10.0, -5.0])
    small, large, bend = tables.bend_interval(size, "bm25")  # three sizes: the middle one is in both halves
    assert (small.mean, large.mean, bend.mean) == pytest.approx((-7.5, -7.5, 0.0))


def _queries(arms: dict[str, float], n_trials: int, tasks: int = 4, per_task: int = 5, seed: int = 0) -> pd.DataFrame:
    """Per-query outcomes of ``arms`` (arm → accuracy, 0–1) on the same queries in every gallery."""
    rng = np.random.default_rng(seed)
    return pd.DataFrame([{"trial": t, "ranker": arm, "query_id": f"t{j}-{i}", "task": f"t{j}",
                          "correct": int(rng.random() < p)}
                         for t in range(n_trials) for arm, p in arms.items() for j in range(tasks)
                         for i in range(per_task)])


def test_claims_on_a_library():
    from robotask.retrieval.scaling import claims

    accuracy = {"bm25": 0.5, "word": 0.45, "char": 0.9, "word_char": 0.55, "lsa": 0.3}
    one = _queries(accuracy, 80)
    per_trial = (100 * one.groupby(["trial", "ranker"])["correct"].mean()).rename("accuracy").reset_index()
    gain = {"bm25": 0.4, "word": 0.1, "char": 0.05, "word_char": 0.1, "lsa": 0.1}
    second = _queries({f"{r}@{k}": min(accuracy[r] + (k == 2) * gain[r], 1.0) for r in accuracy for k in (1, 2)}, 30)
    found, rows = claims.claims_of(per_trial, one, second, seed=0, title="Lib")
    assert found["Char TF-IDF has the highest mean"][0] == "holds"
    assert found["BM25 gains most from a second wording"][0] == "holds"
    assert found["Char TF-IDF beats BM25 in nearly all galleries (at least 90 %)"][1].startswith("ahead in")
    assert {r["unit"] for r in rows} == {"gallery and description", "gallery"}
    assert all(r["verdict"] in ("higher", "lower", "not resolved") for r in rows)
    without_word = claims.claims_of(per_trial[per_trial["ranker"] != "word"], one[one["ranker"] != "word"],
                                    second, seed=0, title="Lib")[0]
    assert len(without_word) == 4 and "Char TF-IDF beats word TF-IDF on average" not in without_word
    cells, words = claims.claims_table({"Lib": found})
    assert cells.loc[0, "Lib"].startswith("holds: Char")
    # the same gap carried by one description of one task: every gallery agrees, the descriptions do not
    one_text = one.assign(correct=np.where(one["ranker"] == "char", (one["query_id"] == "t0-0").astype(int),
                                           0))
    pt = (100 * one_text.groupby(["trial", "ranker"])["correct"].mean()).rename("accuracy").reset_index()
    assert claims.claims_of(pt, one_text, second, seed=0, title="Lib")[0][
        "Char TF-IDF has the highest mean"][0] == "not resolved"


def test_values_of_the_curves():
    from robotask.retrieval.scaling import tables, values

    kept: list[pd.DataFrame] = []
    curve = budget.budget_curve(_frame(6, 8), [1, 2, 4], ["bm25", "char"], n_trials=6, seed=1, outcomes=kept)
    compared = tables.budget_comparisons(curve, kept[0], seed=0)
    gain = compared[compared["kind"] == "gain"].iloc[0]
    wide = curve[curve["ranker"] == "char"].pivot(index="trial", columns="k", values="accuracy")
    assert gain["difference"] == pytest.approx((wide[4] - wide[1]).mean())  # the curve's own paired mean
    assert gain["low"] <= gain["difference"] <= gain["high"]
    assert list(compared.loc[compared["kind"] == "lead", "x"]) == [1, 2, 4]
    found = values.budget_values({"robotwin": compared}, {"robotwin": curve}, ("robotwin", "calvin"))
    assert found["kmax_robotwin"] == 4 and found["chance_robotwin"].endswith("about 0.2")
    assert {found[f"{part}_calvin"] for part in values.BUDGET_PARTS} == {"—"}
    size_kept: list[pd.DataFrame] = []
    pooled = pool.pool({"a": _frame(6, 4), "b": _frame(6, 3)})
    size = pool.size_curve(pooled, [2, 4, 8, 12], ["bm25", "char"], n_draws=5, seed=0, outcomes=size_kept)
    compared = tables.size_comparisons(size, size_kept[0], seed=0)
    slope = compared[compared["kind"] == "slope"].iloc[0]
    assert slope["difference"] == pytest.approx(tables.series_slopes(size)["char"].mean())
    assert slope["low"] <= slope["difference"] <= slope["high"]
    shown = tables.slope_table(compared)
    assert list(shown["Ranker"]) == ["Char TF-IDF", "BM25"]
    assert shown["Points per doubling"].iloc[0] == slope["difference"]
    got = values.size_values(size, compared)
    assert got["n_all"] == 12 and got["falls"] in ("falls", "rises", "not resolved")
    assert len(values.curve_verdict_rows(compared, data="pooled", x_name="n")) == len(compared)
    # one unseen template of one task is right in every gallery, every other template wrong: the same
    # difference in every gallery (a t over galleries alone would call it "higher"), but it rests on one
    # template, and resampling the templates leaves it out of some replicates
    queries = pd.DataFrame([{"trial": t, "ranker": "char", "arm": arm, "query_id": f"t{j}|{arm}|{i}",
                             "group": f"t{j}|{arm}", "correct": int(arm == "unseen" and j == 0 and i == 0)}
                            for t in range(10) for j in range(3) for arm in ("seen", "unseen") for i in range(3)])
    su = 100 * queries.groupby(["trial", "ranker", "arm"])["correct"].mean().rename("accuracy")
    su = su.reset_index().rename(columns={"arm": "queries"})
    got = values.seen_unseen_values(su, queries, seed=0)
    assert got["su_diff"] == "+11.1" and got["su_reading"] == "not resolved" and got["su_templates"] == 18
    everywhere = queries.assign(correct=(queries["arm"] == "unseen").astype(int))  # every unseen one right
    assert values.seen_unseen_values(su, everywhere, seed=0)["su_reading"] == "higher"


def test_task_mean_is_the_pandas_macro():
    import numpy as np

    from robotask.retrieval.scaling.averages import task_mean

    rng = np.random.default_rng(0)
    truth = rng.integers(0, 7, 200) * 3  # sparse task numbers: absent tasks do not count
    ok = rng.random(200) < 0.6
    assert task_mean(ok, truth) == pytest.approx(100 * pd.Series(ok).groupby(truth).mean().mean())


def test_chapter_tables_by_library_title_and_ranker_name():
    from robotask.retrieval.scaling import tables

    su = pd.DataFrame({"ranker": ["char"] * 4, "queries": ["seen", "unseen"] * 2, "accuracy": [80, 60, 70, 50]})
    assert tables.seen_unseen_table(su).to_dict("records") == [{"Ranker": "Char TF-IDF", "seen": 75, "unseen": 55}]
    mm = pd.DataFrame({"library": ["calvin"], "ranker": ["bm25"], "micro": [50.0], "macro": [45.0],
                       "difference": [-5.0], "low": [-7.25], "high": [-2.5]})
    shown = tables.macro_micro_table(mm)
    assert shown.to_dict("records") == [{"library": "CALVIN", "ranker": "BM25", "micro": 50.0, "macro": 45.0,
                                         "difference": -5.0, "interval": "−7.2 to −2.5"}]
    assert mm["library"].tolist() == ["calvin"]  # the results frame is left as it was


def test_budget_tables_stack_the_libraries():
    from robotask.retrieval.scaling import tables

    curve = pd.DataFrame({"ranker": ["bm25"] * 4, "k": [1, 1, 2, 2], "trial": [0, 1, 0, 1],
                          "accuracy": [40.0, 50.0, 60.0, 70.0]})
    bands = tables.budget_bands({"calvin": curve, "robotwin": curve[curve["k"] == 1]})
    assert list(bands.columns) == ["Library", "Ranker", "At k = 1", "At k = 2"]
    assert bands["Library"].tolist() == ["CALVIN", "RoboTwin (objects)"] and bands["At k = 2"].iloc[1] == "—"
    plateau = tables.plateau_table({"calvin": curve})
    assert plateau.to_dict("records") == [{"Ranker": "BM25", "CALVIN": int(budget.plateau_k(curve)["bm25"])}]


def test_values_of_one_wording_the_claims_and_macro_micro():
    from robotask.retrieval.scaling import values

    t2 = {"robotwin": pd.DataFrame({"ranker": ["char"], "mean": [60.0]}),
          "robotwin_placeholder": pd.DataFrame({"ranker": ["char"], "mean": [30.0]})}
    wins = {"robocasa": (70, 80), "robotwin": (60, 80), "robotwin_placeholder": (50, 80)}
    r = values.one_wording_values(t2, wins, 10)
    assert (r["n_gal"], r["w_robocasa"], r["w_robotwin"], r["w_placeholder"]) == (80, 70, 60, 50)
    assert r["chance"] == 10 and r["lost"] == 60 and r["object_share"] == "most"
    words = pd.DataFrame({"RoboCasa": ["holds", "not resolved", "does not hold"],
                          "CALVIN": ["holds", "holds", "holds"]})
    assert values.library_claim_values(words, ("robocasa", "calvin")) == {
        "n_claims": 3, "held_robocasa": "1 of 3", "held_calvin": "3 of 3", "open_robocasa": "1", "open_calvin": "0"}
    mm = pd.DataFrame({"library": ["calvin", "robocasa"], "ranker": ["bm25", "char"], "difference": [-1.0, 4.0],
                       "low": [-2.0, 1.0], "high": [0.5, 7.0]})
    full = pd.DataFrame({"task": ["a", "a", "a", "b", "c"]})
    assert values.macro_micro_values(mm, full) == {"gap": 4.0, "gap_lo": "+1.0", "gap_hi": "+7.0",
                                                     "gap_library": "RoboCasa",
                                                     "gap_ranker": "Char TF-IDF", "mm_where": "RoboCasa",
                                                     "mm_chance": "1 of 2 ranker-library gaps resolved, where "
                                                                  "chance alone would resolve about 0.1",
                                                     "rf_max": 3, "rf_median": "1"}
