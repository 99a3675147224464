"""Each query perturbation (robotask.retrieval.perturbations.transforms) on hand-written examples, and the paired
study."""

from __future__ import annotations

import pandas as pd
import pytest

from robotask.errors import RobotaskError
from robotask.retrieval.perturbations import robustness as R
from robotask.retrieval.perturbations import transforms as P
from robotask.retrieval.perturbations import vocabulary as V
from robotask.retrieval.protocol.draws import check_corpus


def test_inflection_forms():
    assert P.third_person("open") == "opens" and P.gerund("open") == "opening"
    assert P.third_person("push") == "pushes" and P.gerund("close") == "closing"
    assert P.gerund("put") == "putting" and P.gerund("unplug") == "unplugging"
    assert P.third_person("empty") == "empties"


def test_inflection_changes_clause_initial_verbs_only():
    out = P.perturb_inflection("grasp the lid and open the box", seed=0)
    assert out in {"grasps the lid and opens the box", "grasping the lid and opening the box"}
    # "to move" is an infinitive and is kept; "the door" is not a verb position
    out = P.perturb_inflection("use the handle to move the door closed", seed=0)
    assert out.endswith("to move the door closed") and out.split()[0] in {"uses", "using"}
    # no lexicon verb at a clause start -> unchanged (not applicable)
    assert P.perturb_inflection("the plant needs hydration", seed=0) == "the plant needs hydration"


def test_inflection_is_deterministic_per_text_and_seed():
    text = "open the drawer"
    assert P.perturb_inflection(text, 7) == P.perturb_inflection(text, 7)
    forms = {P.perturb_inflection(text, s) for s in range(20)}
    assert forms == {"opens the drawer", "opening the drawer"}


def test_spelling_one_edit_in_one_content_word():
    text = "put the knife in the knife block"
    for seed in range(30):
        out = P.perturb_spelling(text, seed)
        a, b = text.split(), out.split()
        assert len(a) == len(b)
        diff = [(x, y) for x, y in zip(a, b) if x != y]
        assert len(diff) == 1
        old, new = diff[0]
        assert old in {"knife", "block"}  # content words of >= 4 letters, not "put"/"the"/"in"
        deletion = len(new) == len(old) - 1 and any(old[:k] + old[k + 1:] == new for k in range(len(old)))
        swap = len(new) == len(old) and sorted(new) == sorted(old) and sum(x != y for x, y in zip(old, new)) == 2
        assert deletion or swap
    assert P.perturb_spelling("put it in", 0) == "put it in"  # no content word of 4+ letters


def test_object_generic_and_removed():
    assert P.perturb_object_generic("open the microwave door", 0) == "open the object"
    assert P.perturb_object_generic("put the phone on the base", 0) == "put the object on the object"
    assert P.perturb_object_generic("pull the rope straight", 0) == "pull the object straight"
    assert P.perturb_object_removed("open the microwave door", 0) == "open"
    assert P.perturb_object_removed("put the phone on the base", 0) == "put on"
    assert P.perturb_object_removed("turn the lamp on", 0) == "turn on"


def test_direction_swap_pairs():
    assert P.perturb_direction_swap("open the drawer", 0) == "close the drawer"
    assert P.perturb_direction_swap("turn on the light", 0) == "turn off the light"
    assert P.perturb_direction_swap("plug the charger into the mains", 0) == "unplug the charger out of the mains"
    assert P.perturb_direction_swap("unplug charger", 0) == "plug charger"
    assert P.perturb_direction_swap("put the shoes in the box", 0) == "take the shoes out of the box"
    assert P.perturb_direction_swap("take shoes out of box", 0) == "put shoes in box"
    assert P.perturb_direction_swap("Open the box", 0) == "Close the box"
    # "pick up" is a phrasal verb, not a direction
    assert P.perturb_direction_swap("pick up the cup", 0) == "pick up the cup"
    assert P.perturb_direction_swap("stack the blocks", 0) == "stack the blocks"


def test_opposite_tasks_by_id_swap_and_curated_pairs():
    tasks = ["close_box", "open_box", "lamp_on", "lamp_off", "put_tray_in_oven", "take_tray_out_of_oven",
             "open_oven", "plug_charger_in_power_supply", "unplug_charger", "stack_wine"]
    opp = V.opposite_tasks(tasks)
    assert opp["open_box"] == "close_box" and opp["close_box"] == "open_box"
    assert opp["lamp_on"] == "lamp_off"
    assert opp["put_tray_in_oven"] == "take_tray_out_of_oven" and opp["take_tray_out_of_oven"] == "put_tray_in_oven"
    assert opp["plug_charger_in_power_supply"] == "unplug_charger"
    assert "open_oven" not in opp and "stack_wine" not in opp


def test_unknown_perturbation_lists_valid_names():
    with pytest.raises(RobotaskError) as err:
        P.check_perturbations(["spelling", "typo"])
    message = str(err.value)
    assert "'typo'" in message and all(name in message for name in P.PERTURBATIONS)
    with pytest.raises(RobotaskError):
        P.perturb("nope", "open the box")
    assert P.check_perturbations("spelling,inflection") == ["spelling", "inflection"]


def test_swap_onto_opposite_task_must_retrieve_it():
    """A direction swap of an open_box query is scored against close_box (toy corpus, char ranker)."""
    corpus = check_corpus(pd.DataFrame({
        "task": ["open_box"] * 3 + ["close_box"] * 3 + ["stack_blocks"] * 3,
        "text": ["open the box", "open the box lid", "lift the box lid open",
                 "close the box", "close the box lid", "push the box lid closed",
                 "stack the blocks", "pile up the blocks", "put one block on another"],
    }))
    pq = R.run_perturbations(corpus, ["char"], ["direction_swap"], seed=1, n_trials=3)
    swapped = pq[pq["applicable"]]
    assert set(swapped["task"]) <= {"open_box", "close_box"}
    assert (swapped.loc[swapped["task"] == "open_box", "gold"] == "close_box").all()
    assert (swapped.loc[swapped["task"] == "close_box", "gold"] == "open_box").all()
    stack = pq[pq["task"] == "stack_blocks"]
    assert not stack["applicable"].any()  # "put ... on" changes but stack_blocks has no opposite
    # the char ranker follows every swap: each open_box query, swapped, is assigned to close_box and back
    assert (swapped["predicted_original"] == swapped["task"]).all()
    assert (swapped["predicted_perturbed"] == swapped["gold"]).all()
    row = pq[(pq["trial"] == 0) & (pq["text"] == "push the box lid closed")].iloc[0]
    assert (row["perturbed"], row["gold"], row["predicted_perturbed"]) == ("pull the box lid open", "open_box",
                                                                           "open_box")
    table = R.perturbation_table(pq, n_bootstrap=50, seed=0, n_permutations=100)
    got = table.iloc[0]
    assert (got["ranker"], got["perturbation"], got["n_per_trial"]) == ("char", "direction_swap", 4.0)
    assert (got["original"], got["perturbed"], got["change"], got["stays_source"]) == (100.0, 100.0, 0.0, 0.0)
    assert (got["wins"], got["ties"], got["losses"]) == (0, 3, 0)


def test_perturbation_table_counts_only_applicable_queries_and_pairs_them():
    """Two trials, one ranker: a hand-made per-query table gives hand-computed accuracies and change."""
    rows = []
    for trial, outcomes in ((0, [(True, True, False), (True, True, True)]),  # (applicable, orig, pert)
                            (1, [(True, True, True), (False, False, False)])):
        for k, (app, orig, pert) in enumerate(outcomes):
            rows.append({"trial": trial, "ranker": "char", "perturbation": "spelling", "task": "t",
                         "query_id": f"t:{k}", "applicable": app, "correct_original": orig,
                         "correct_perturbed": pert, "stays_source": pert})
    table = R.perturbation_table(pd.DataFrame(rows), n_bootstrap=20, seed=0, n_permutations=100)
    got = table.iloc[0]
    # trial 0: original 2/2, perturbed 1/2; trial 1 (one applicable query): 1/1 and 1/1
    assert got["n_per_trial"] == 1.5
    assert got["original"] == 100.0 and got["perturbed"] == 75.0 and got["change"] == -25.0
    assert (got["wins"], got["ties"], got["losses"]) == (0, 1, 1)


def test_known_texts_give_known_perturbations():
    text = "put the knife in the knife block"
    assert [P.perturb_spelling(text, s) for s in (0, 1, 2)] == [
        "put the knife in the knife blck", "put the knife in the knfe block", "put the knife in the knief block"]
    assert P.perturb("inflection", "grasp the lid and open the box", 2) == "grasps the lid and opens the box"
    assert P.perturb("inflection", "grasp the lid and open the box", 0) == "grasping the lid and opening the box"
    assert P.perturb("direction_swap", "put the tray in the oven", 0) == "take the tray out of the oven"
    assert P.perturbed_texts(["open the box", "stack the blocks"], ["object_generic", "direction_swap"], 0) == {
        "object_generic": ["open the object", "stack the object"], "direction_swap": ["close the box",
                                                                                      "stack the blocks"]}


def test_a_swap_onto_the_one_verb_of_the_opposite_task_brings_the_query_closer_to_it():
    """close_box says "close" and "shut"; open_box always says "open". The swap maps both onto "open", so the
    swapped "shut" query shares its verb with every open_box text while the original shares none with close_box's."""
    corpus = check_corpus(pd.DataFrame({
        "task": ["open_box"] * 3 + ["close_box"] * 3,
        "text": ["open the box", "open the box lid", "open box",
                 "close the box", "shut the box", "shut box lid"],
    }))
    pq = R.run_perturbations(corpus, ["bm25"], ["direction_swap"], seed=1, n_trials=4)
    assert set(pq.loc[pq["text"] == "shut the box", "perturbed"]) == {"open the box"}
    got = R.swap_overlap(corpus, pq)
    assert got["n"] == 6 and got["swapped"] > got["original"]
    # "shut the box" against its task's others, "close the box" and "shut box lid": 2/4 and 2/4; swapped,
    # "open the box" against open_box's texts: 3/3, 3/4 and 2/3; so the swapped query is the closer
    shut = pq[(pq["text"] == "shut the box") & pq["applicable"]].drop_duplicates("query_id")
    assert R._overlap("shut the box", ["close the box", "shut box lid"]) == 0.5
    assert abs(R._overlap(shut["perturbed"].item(), ["open the box", "open the box lid", "open box"])
               - (1 + 0.75 + 2 / 3) / 3) < 1e-12
    by_task = R.swap_by_task(pq, "bm25")
    assert set(by_task["task"]) == {"open_box", "close_box"}
    assert by_task.set_index("task").loc["close_box", "opposite"] == "open_box"
    assert (by_task["change"] == by_task["swapped"] - by_task["original"]).all()


def _planted(drops: dict[str, float], n_trials: int = 12, n_queries: int = 30) -> pd.DataFrame:
    """Per-query outcomes where ranker r loses the share ``drops[r]`` of its queries after the perturbation."""
    rows = []
    for trial in range(n_trials):
        for ranker, drop in drops.items():
            lost = int(round(drop * n_queries))
            for k in range(n_queries):
                rows.append({"trial": trial, "ranker": ranker, "perturbation": "object_removed",
                             "task": f"t{k % 5}", "query_id": f"t{k % 5}:{k}", "applicable": True,
                             "correct_original": True, "correct_perturbed": (k + trial) % n_queries >= lost,
                             "stays_source": True})
    return pd.DataFrame(rows)


def test_the_largest_drop_is_named_only_when_its_lead_over_the_runner_up_is_resolved():
    from robotask.retrieval.perturbations import leader_comparisons, leader_phrase

    for drops, word in (({"a": 0.8, "b": 0.2, "c": 0.1}, "higher"), ({"a": 0.5, "b": 0.5, "c": 0.1}, None)):
        pq = _planted(drops)
        table = R.perturbation_table(pq, n_bootstrap=200, seed=0, n_permutations=100)
        lead = leader_comparisons(pq, table, [("object_removed", "size")], 200, 0).iloc[0]
        assert lead["a"] == "a" or word is None
        if word:
            assert lead["verdict"] == word and lead["b"] == "b"
            assert leader_phrase(lead, {"a": "A", "b": "B"}).startswith("A, ahead of B by")
        else:  # equal drops: the lead over the runner-up includes zero
            assert lead["verdict"] == "not resolved" and lead["low"] <= 0 <= lead["high"]
            assert leader_phrase(lead, {}).startswith("not resolved between")
