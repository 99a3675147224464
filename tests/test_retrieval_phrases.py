"""The data-dependent words chapters 01 to 05 glue into their Markdown."""

from __future__ import annotations

import pandas as pd

from robotask.retrieval import presentation as ph
from robotask.retrieval.presentation import phrases


def test_leader_takes_the_highest_value_and_breaks_ties_by_name():
    assert phrases.leader({"bm25": 60.0, "char": 64.0}) == "char"
    assert phrases.leader({"b": 1.0, "a": 1.0}) == "a"
    assert phrases.leader(pd.Series({"x": -2.0, "y": -1.0})) == "y"


def test_fewer_or_more_and_fits():
    assert phrases.fewer_or_more(-1, "description") == "one description fewer"
    assert phrases.fewer_or_more(2, "task") == "two tasks more"
    assert phrases.fewer_or_more(0, "task") == "the same number of tasks"
    assert phrases.fits(232, [229, 232]) == "fits" and phrases.fits(231, [229, 232]) == "does not fit"


def test_signs_read_as_words():
    assert phrases.same_or_reversed(0.4, -0.6) == "reversed" and phrases.same_or_reversed(1.0, 2.0) == "the same"
    assert phrases.one_sign([4.6, 4.5, 4.7]) == "has the same sign"
    assert phrases.one_sign([0.5, -0.1]) == "changes sign" and phrases.one_sign([-1.0, -2.0]) == "has the same sign"


def test_how_many_and_records():
    assert phrases.how_many(5, 5, "ranker") == "every ranker" and phrases.how_many(0, 5, "ranker") == "no ranker"
    assert phrases.how_many(2, 2, "error") == "both errors" and phrases.how_many(3, 5, "ranker") == "3 of 5 rankers"
    assert phrases.record(3, 0, 0) == "higher in every gallery"
    assert phrases.record(0, 0, 1) == "lower in the one gallery"
    assert phrases.record(1, 0, 2) == "higher in 1, tied in 0 and lower in 2 of the 3 galleries"


def test_lists_and_exclusions():
    assert phrases.per_draw(pd.Series({1: 45, 2: 35})) == "1 in 45 draws and 2 in 35 draws"
    assert phrases.labels(["bm25", "char"]) == "BM25 and Char TF-IDF" and phrases.labels([]) == "none"


def test_verdicts_follow_their_thresholds():
    assert phrases.size_verdict(12, 11, 12) == "supports" and phrases.size_verdict(11, 11, 12) == "does not settle"
    assert phrases.size_verdict(12, 12, 12) == "does not settle"


def _stats() -> pd.DataFrame:
    rows = {"bm25": (58.0, 52.0, 64.0), "char": (63.0, 57.5, 69.5), "lsa": (53.0, 50.0, 56.0),
            "minilm": (72.0, 68.0, 76.0)}
    return pd.DataFrame([{"ranker": r, "mean": m, "min": lo, "max": hi, "p5": lo + 1, "p95": hi - 1}
                         for r, (m, lo, hi) in rows.items()]).set_index("ranker")


def test_spread_values_name_the_best_and_worst_paper_rankers_and_the_best_beyond():
    facts = ph.spread_values(_stats(), {"char": {"mean": 61.3}}, ["bm25", "char", "lsa"])
    assert (facts["best"], facts["worst"], facts["top_extra"]) == ("Char TF-IDF", "LSA-32", "MiniLM")
    assert facts["best_range"] == 12.0 and facts["best_paper"] == 61.3 and facts["top_extra_gap"] == 9.0
    alone = ph.spread_values(_stats().loc[["minilm"]], {}, ["bm25"])
    assert alone["best"] == "MiniLM" and alone["top_extra_gap"] == 0.0 and alone["best_paper"] != alone["best_paper"]


def test_paired_values_follow_the_signs_and_mark_missing_pairs():
    paired = pd.DataFrame([{"a": "char", "b": "bm25", "mean_diff": 4.9, "wins": 79, "ties": 0, "losses": 1,
                            "n_trials": 80, "lo": 4.5, "hi": 5.3, "verdict": "higher"},
                           {"a": "word_char", "b": "char", "mean_diff": -0.7, "wins": 25, "ties": 5,
                            "losses": 50, "n_trials": 80, "lo": -1.6, "hi": 0.2, "verdict": "not resolved"}])
    paper_paired = {("char", "bm25"): {"mean_diff": 5.7, "wins": 79, "ties": 1, "losses": 0},
                    ("char", "word"): {"mean_diff": 6.4}}
    facts = ph.paired_values(paired, paper_paired)
    assert facts["cb_verdict"] == "higher" and facts["cb_losses"] == 1 and facts["pb_n"] == 80
    assert (facts["cb_lo"], facts["cb_hi"]) == (4.5, 5.3)
    assert facts["wc_verdict"] == "not resolved" and facts["wc_record"].startswith("higher in 25, tied in 5")
    assert facts["cw_diff"] != facts["cw_diff"]  # the char-word pair did not run: NaN


def test_policy_and_first_listed_values():
    policies = pd.DataFrame({"strict": [58.0, 63.0], "either": [58.1, 63.0], "primary": [58.4, 63.3]},
                            index=["bm25", "char"])
    facts = ph.scoring_policy_values(policies)
    assert facts["order_same"] == "the same" and facts["gap_sign"] == "has the same sign"
    assert round(facts["max_shift"], 6) == 0.4 and round(facts["gap_either"], 6) == 4.9
    fl = pd.DataFrame({"primary": [63.6, 63.2, 70.0], "n_scored": [231, 231, 231]},
                      index=["word_char", "char", "bm25"])
    summary = pd.DataFrame({"mean": [62.6, 63.3, 58.0], "min": [57.0, 57.5, 50.0], "max": [68.0, 69.7, 65.0]},
                           index=["word_char", "char", "bm25"])
    out = ph.first_listed_values(fl, summary, {"word_char": 63.8, "char": 62.9})
    assert out["fl_order"] == "reversed" and out["n_inside"] == "2 of 3 rankers" and out["fl_n"] == 231
    alone = ph.first_listed_values(fl.loc[["bm25"]], summary, {"word_char": 1, "char": 2})
    assert alone["n_inside"] == "no ranker" and alone["fl_order"] != alone["fl_order"]  # NaN


def test_duplicate_values_explain_strict_equal_to_either_only_when_no_owner_is_predicted():
    dup = pd.DataFrame([(r, t, "press the light switch", "press_switch") for r in ("bm25", "char")
                        for t in ("lamp_off", "lamp_on")], columns=["ranker", "task", "text", "predicted"])
    fl = pd.DataFrame({"strict": [61.8, 62.7], "either": [61.8, 62.7]}, index=["bm25", "char"])
    gallery = {"lamp_off": "turn off the light", "lamp_on": "turn on the light", "press_switch": "press switch"}
    facts = ph.duplicate_values(dup, fl, gallery)
    assert facts["applies"] and facts["n_hit"] == "no ranker" and facts["strict_either"] == "equal"
    assert facts["guess_words"] == "press, switch" and facts["owner_words"] == "light"
    hit = dup.assign(predicted="lamp_off")
    assert not ph.duplicate_values(hit, fl.assign(either=[62.2, 63.1]), gallery)["applies"]


def test_matched_values():
    matched = pd.DataFrame({"ranker": ["bm25", "char"], "one": [50.0, 60.0], "two": [57.0, 62.0],
                            "diff": [7.0, 2.0], "two_better": [28, 20], "two_worse": [1, 6], "n_trials": [30, 30],
                            "verdict": ["higher", "not resolved"]})
    facts = ph.matched_values(matched, {"bm25": {"diff": 10.2}})
    assert facts["top"] == "BM25" and facts["top_paper"] == 10.2 and facts["best_two"] == "Char TF-IDF"
    # the gain is counted as "higher" only where its interval says so, not from the sign of the mean
    assert facts["n_gain"] == "1 of 2 rankers" and facts["n_gain_open"] == "1 of 2 rankers"
    assert facts["n_better"] == 48 and facts["n_cells"] == 60


def test_corpus_and_rule_values_agree_with_the_committed_extraction():
    from robotask.retrieval.presentation import reproduction_tables as tl
    from robotask.retrieval.reproduction import versus_paper
    from robotask.retrieval.rlbench import fixed_corpus as fc

    tables = fc.committed_tables()
    corpus, literals = tables["corpus"], tables["literals"]
    per_task = fc.descriptions_per_task(corpus)
    facts = ph.corpus_values(tables, tl.excluded_files(tables["accounting"]), per_task,
                            fc.duplicate_texts(corpus), fc.within_task_duplicates(corpus), fc.glued_literals(literals))
    assert facts["n_files"] == len(tables["accounting"]) and facts["largest_status"] == "templated"
    assert facts["n_fixed"] == corpus["task"].nunique() and facts["min_queries"] == facts["per_low"] - 1
    assert facts["umbrella_strings"] < 3 <= facts["umbrella_pieces"]  # gluing makes the task too_few
    counts = fc.corpus_counts(corpus)
    rules = ph.rule_values(versus_paper.rule_alternatives(literals), counts, fc.first_listed_scored_queries(corpus))
    assert rules["tasks_vs_paper"] == "the same number of tasks"
    assert rules["descriptions_vs_paper"] == "one description fewer" and rules["only_capital"]
    assert (rules["paper_fits"], rules["ours_fits"]) == ("fits", "does not fit")


def test_corpus_size_and_alternative_values():
    per_trial = pd.DataFrame({"condition": ["first_listed"], "policy": ["primary"], "n_queries": [231]})
    dens, facts = ph.corpus_size_values(per_trial, n_texts=295, n_tasks=62, n_duplicates=2)
    assert facts["n_fl_paper"] == 232 and facts["fl_paper_fits"] == "fits" and facts["fl_ours_fits"] == "does not fit"
    first = dens[dens["key"].str.startswith("first_listed")]  # checked against the one first-listed count
    assert not first["fits_ours"].any() and first["fits_paper_234"].all()
    assert facts["n_stated"] == len(dens) and facts["size_verdict"] in ("supports", "does not settle")
    assert ph.alternative_values(None)["fingerprint"] != ph.alternative_values(None)["fingerprint"]  # NaN
    alt = pd.DataFrame({"corpus": ["committed", "split_one:a", "split_glued"], "tasks": [62, 62, 63],
                        "descriptions": [295, 296, 304], "fl_word_char": [63.6, 63.8, 60.3],
                        "fl_char": [63.2, 63.4, 61.9], "mean_char": [63.3, 63.1, 60.9]})
    facts = ph.alternative_values(alt)
    assert facts["n_same"] == 1 and facts["word_char_readings"] == "split the glued literal of a"
    assert round(facts["char_move"], 6) == 0.2 and round(facts["char_offset"], 6) == round(63.3 - 61.3, 6)
