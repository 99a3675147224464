"""The home page's numbers and phrases (robotask.retrieval.presentation.answers, robotask.episode.report.answers)."""

from __future__ import annotations

from robotask.episode.report import answers as episode_answers
from robotask.retrieval.presentation import answers

TRANSFER = {"paired": [
    {"Library": "RLBench-62", "Comparison": "Char TF-IDF − BM25", "Char wins": 79, "Galleries": 80},
    {"Library": "RLBench-62", "Comparison": "Char TF-IDF − Word TF-IDF", "Char wins": 80, "Galleries": 80},
    {"Library": "CALVIN", "Comparison": "Char TF-IDF − BM25", "Char wins": 9, "Galleries": 80}]}
LIBRARIES = {"char_beats_bm25_robocasa": 10, "galleries_robocasa": 20}


def test_char_vs_bm25_reads_both_chapters_and_only_the_bm25_rows():
    table = answers.char_vs_bm25(TRANSFER, LIBRARIES)
    assert table["library"].tolist() == ["RLBench-62", "CALVIN", "RoboCasa"]
    assert table["wins"].tolist() == [79, 9, 10] and table["galleries"].tolist() == [80, 80, 20]
    assert answers.char_vs_bm25(None, None).empty


def test_transfer_verdict_names_the_libraries_by_the_exact_share_interval():
    table = answers.char_vs_bm25(TRANSFER, LIBRARIES)
    # 79 of 80: the share's interval (93–100 %) lies above 90 %; 9 of 80 and 10 of 20 lie below
    assert table["verdict"].tolist() == ["holds", "does not hold", "does not hold"]
    assert answers.transfer_verdict_values(table) == {
        "transfer_holds": "RLBench-62", "transfer_fails": "CALVIN and RoboCasa", "transfer_open": "none",
        "transfer_open_sentence": "", "nearly_all_pct": "90"}
    # 19 of 20: the interval (75–100 %) includes 90 %, so nothing is decided
    open_ = answers.char_vs_bm25({"paired": []}, {"char_beats_bm25_robocasa": 19, "galleries_robocasa": 20})
    assert answers.transfer_verdict_values(open_)["transfer_open_sentence"] == "It is not resolved on RoboCasa."


def test_gains_offset_and_phrases():
    matched = {"char": {"diff": 6.5, "sd_diff": 4.5, "two_better": 26, "n_trials": 30},
               "bm25": {"diff": -1.0, "sd_diff": 3.0, "two_better": 10, "n_trials": 30}}
    gains = answers.second_description_gains(matched, {"char": {"diff": 7.0}})
    assert gains.set_index("ranker").loc["char", "paper"] == 7.0
    said = answers.helps_phrase(["higher", "not resolved"])  # the gains' verdicts, never their signs
    assert "for 1 of 2 rankers (not resolved for the others)" in said
    assert answers.helps_phrase(["higher", "higher"]).endswith("for both rankers")
    assert "lower for 1 of 3 rankers" in answers.helps_phrase(["higher", "lower", "not resolved"])
    off = answers.offset({"a": {"mean": 60.0}, "b": {"mean": 50.0}}, {"a": {"mean": 59.0}, "b": {"mean": 52.0}})
    assert off == {"mean": -0.5, "low": -2.0, "high": 1.0}
    assert [answers.direction(x) for x in (1.0, -1.0, 0.0)] == ["above", "below", "at"]
    assert answers.chance_phrase([3.2, -4.0]) == "too many to be the luck of the draws for every ranker"
    # as chapter 05 decides it: an offset within 1.96 standard errors is not resolved
    assert answers.chance_phrase([1.6, 3.0, 5.0, 8.0, -2.5]) == "within the luck of the draws for 1 of 5 rankers"
    assert answers.leader({"a": 1.0, "b": 1.0}, ["b", "a"]) == "b"


def test_the_home_page_reads_chapter_13s_verdicts_not_its_means():
    primary = [
        {"schedule": "sample-like", "protocol": "improved", "name": n, "model": "minimal", "verdict": v, "value": 0.5}
        for n, v in (("Temporal Order Verification", "behind"), ("Multimodal Synchronization Detection", "behind"),
                     ("Hand Trajectory Forecasting", "behind"), ("Action Recognition", "not resolved"))]
    primary += [{"schedule": "sample-like", "protocol": "improved", "name": "Hand Trajectory Forecasting",
                 "model": "baseline", "verdict": None, "value": 0.01}]
    assert episode_answers.behind_tasks(primary, "sample-like", "improved") == [
        "Temporal Order Verification", "Multimodal Synchronization Detection", "Hand Trajectory Forecasting"]
    s13 = {"primary": primary, "recap": {"s0": "repeating", "s1": "sample-like", "s1_minimal_ahead": "7 of the 12"}}
    values, note = episode_answers.suite_values({"is_synthetic": True, "n_frames": 5821}, s13)
    assert note == "" and values["s1_minimal_ahead"] == "7 of the 12" and values["hold_base"] == 0.01
    assert values["behind_timeline"] == "no task"
    primary[3] |= {"verdict": "behind", "strongest_baseline": "previous window's label",
                   "trivial_baseline": "majority class"}  # behind a timeline baseline: a bullet explains it
    values, note = episode_answers.suite_values({"is_synthetic": True, "n_frames": 5821}, s13)
    assert values["behind_timeline"] == "Action Recognition" and note == ""
    primary[0] |= {"strongest_baseline": "largest training class"}  # a pair task's: not the timeline
    assert episode_answers.behind_tasks(primary, "sample-like", "improved", timeline=True) == ["Action Recognition"]
    primary[3]["strongest_baseline"] = "majority class"  # a fourth task lost: the bullets no longer cover it
    note = episode_answers.suite_values({"is_synthetic": True, "n_frames": 5821}, s13)[1]
    assert "also behind on Action Recognition" in note
    assert episode_answers.reads_timeline("copy the current action") and not episode_answers.reads_timeline(None)
    assert episode_answers.reasons_for(["Hand Trajectory Forecasting", "Up"]) == {
        "pair": [], "hold": ["Hand Trajectory Forecasting"], "other": ["Up"]}


def test_values_of_chapters_that_did_not_run_are_dashes_and_nan():
    empty = answers.char_vs_bm25(None, None)
    part1 = answers.ranking_answer_values(None, empty) | answers.offset_answer_values(None, None, None)
    assert part1["transfer_holds"] == "none" and part1["n_galleries"] == "–" and part1["lead_ours"] == "–"
    assert part1["char_paper"] > 0  # the paper's own number is always there
    part2 = answers.part_two_answer_values(None, None, None, None)
    assert part2["n_orderings"] == 0 and part2["best_small"] == "–"
    part3, note = episode_answers.suite_values(None, None)
    assert note == "" and part3["s1_minimal_ahead"] == "–"


def test_ranking_and_offset_answer_values_read_the_chapters():
    rankers = ("bm25", "word", "char", "word_char", "lsa")
    s02 = {"n_trials": 80, "table2": {r: {"mean": 60.0, "sd": 3.0} for r in rankers}}
    s02["table2"]["char"] = {"mean": 63.0, "sd": 3.0}
    values = (answers.ranking_answer_values(s02, answers.char_vs_bm25(TRANSFER, None))
              | answers.offset_answer_values(s02, None, {"claims": {"a": True, "b": False}}))
    assert values["lead_ours"] == "Char TF-IDF" and values["n_claims_ok"] == 1 and values["wins_paper"] == 79
    assert values["lead_reading"] == "–"  # an older summary without the shared interval reads a dash
    s02 |= {"n_tasks": 62, "n_descriptions": 296, "leader": {"a": "char", "b": "word_char", "difference": 0.7,
                                                            "low": -0.3, "high": 1.7, "verdict": "not resolved"}}
    lead = answers.ranking_answer_values(s02, answers.char_vs_bm25(TRANSFER, None))
    assert (lead["lead_runner"], lead["lead_reading"], lead["n_tasks_ours"]) == ("Word+Char", "not resolved", 62)
    assert values["off_dir"] == "above" and values["se_max"] > values["se_min"] > 0


def test_unseen_values_name_tasks_by_title():
    s14 = {"unseen_episodes": 20, "unseen_folds": 5, "unseen_protocol": "improved", "unseen_synthetic": True,
           "unseen_transfer_tasks": ["timeline_action"], "unseen_tasks_ran": 11, "unseen_drop_tasks": [],
           "unseen_shift_hurts": {"subject": ["next_action"], "scene": []},
           "unseen_episodes_needed": {"timeline_action": 1, "next_action": None}}
    values, answered = episode_answers.unseen_values(s14)
    assert answered and values["u_won"] == 1 and values["u_won_tasks"] == "Action Recognition"
    assert values["u_drop"] == "no task" and values["u_subject"] == "hurts Next-Action Prediction"
    assert values["u_first"] == "Action Recognition" and values["u_never"] == "Next-Action Prediction"
    assert values["u_frames"] == "–"  # an older summary without its design's size reads dashes
    values, _ = episode_answers.unseen_values(s14 | {"unseen_frames": 160, "unseen_n_subjects": 8})
    assert values["u_frames"] == 160 and values["u_n_subjects"] == 8
    assert episode_answers.unseen_values({"unseen_episodes": 3}) == (episode_answers.unseen_values(None)[0], False)


def test_a_shift_that_did_not_run_is_said_so_never_a_claim_over_zero_groups():
    s14 = {"unseen_episodes": 6, "unseen_folds": 3, "unseen_protocol": "improved", "unseen_synthetic": True,
           "unseen_transfer_tasks": [], "unseen_tasks_ran": 11, "unseen_drop_tasks": ["next_action"],
           "unseen_shift_hurts": {"scene": []}, "unseen_episodes_needed": {},
           "unseen_shifts_not_run": {"subject": "the collection has 1 subject value; holding one out needs two"}}
    values, _ = episode_answers.unseen_values(s14)
    assert values["u_subject"] == "did not run (the collection has 1 subject value; holding one out needs two)"
    assert values["u_scene"] == "hurts no task" and values["u_drop"] == "1 task (Next-Action Prediction)"
    assert "did not run" in episode_answers.unseen_values(s14 | {"unseen_shifts_not_run": {}})[0]["u_subject"]


def test_worst_lead_reads_chapter_08s_leader_interval():
    from robotask.retrieval.presentation.answers import worst_lead_phrase

    worst = {"perturbation": "object_replace", "ranker": "minilm", "change": -53.6}
    row = {"perturbation": "object_replace", "measure": "size", "a": "minilm", "b": "minilm_char",
           "difference": 2.76, "low": 0.73, "high": 4.8, "verdict": "higher"}
    assert worst_lead_phrase(worst, [row]).startswith("ahead of the next ranker, MiniLM+Char, by +2.8 points")
    unresolved = {**row, "low": -0.73, "verdict": "not resolved"}
    assert worst_lead_phrase(worst, [unresolved]).startswith("not resolved against MiniLM+Char")
    assert "no interval" in worst_lead_phrase(worst, [])
