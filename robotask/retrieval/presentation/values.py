"""The values the retrieval chapters glue into their Markdown: numbers as the prose shows them, with the
data-dependent words of :mod:`.phrases`.

Each ``*_values`` function returns the values of one part of chapters 01 to 05, :func:`perturbation_values`
those of one perturbation (chapter 08), :func:`library_values` one value per library (chapters 09), and
:func:`char_lead_values`, :func:`widest_band_values`, :func:`claim_values` and :func:`variation_values` those of chapter
09.1. A chapter glues them with :func:`robotask.book.glue_values`.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

import pandas as pd

from .phrases import (
    char_lead,
    fewer_or_more,
    fits,
    how_many,
    label,
    leader,
    one_sign,
    record,
    same_or_reversed,
    shown,
    signs,
    size_verdict,
    task_right_reading,
    where_all_hold,
    widest,
)


def library_values(prefix: str, values: Mapping[str, object], keys: Iterable[str]) -> dict[str, object]:
    """Glue names ``<prefix>_<library key>`` for every key, "—" for a library this run left out."""
    return {f"{prefix}_{k}": values.get(k, "—") for k in keys}


# ------------------------------------------------------------------ the values chapter 09.1 glues
VARIATION_KEYS = ("var_excluded", "var_task_right", "var_reading", "lsa_small", "lsa_mid", "lsa_large", "word_var",
                  "lsa_task", "lsa_mid_dims", "lsa_large_dims", "n_var_labels")


def char_lead_values(paired: pd.DataFrame, titles: Mapping[str, str], keys: Iterable[str]) -> dict[str, object]:
    """``cb_<library key>``: Char TF-IDF − BM25 on each library (:func:`char_lead`), from the rows of
    ``transfer_tables.paired`` (``titles``: library key → its title in the table; "—" for a key left out)."""
    key_of = {t: k for k, t in titles.items()}
    rows = paired[paired["Comparison"].str.startswith("Char TF-IDF − BM25")]
    return library_values("cb", {key_of[r["Library"]]: char_lead(r) for r in rows.to_dict("records")}, keys)


def widest_band_values(bands: pd.DataFrame, titles: Mapping[str, str], keys: Iterable[str]) -> dict[str, object]:
    """``band_<library key>``: the widest percentile band of each library run (:func:`widest`), from
    ``transfer_tables.sensitivity`` (``titles``: key → title of the libraries run)."""
    by_ranker = bands.set_index("Ranker")
    return library_values("band", {k: widest(by_ranker[t]) for k, t in titles.items()}, keys)


def claim_values(verdicts: pd.DataFrame, titles: Mapping[str, str], keys: Iterable[str]) -> dict[str, object]:
    """The paper's claims on each library (``verdicts``: claim × library title): ``n_claims``, ``all_hold``
    (:func:`where_all_hold`), ``held_<key>`` ("3 of 7" that hold) and ``open_<key>`` (how many are not resolved)
    for the libraries of ``titles`` (key → title), "—" for the other ``keys``."""
    held = verdicts == "holds"
    return {"n_claims": len(held), "all_hold": where_all_hold(held),
            **library_values("held", {k: f"{int(held[t].sum())} of {len(held)}" for k, t in titles.items()}, keys),
            **library_values("open", {k: f"{int((verdicts[t] == 'not resolved').sum())}" for k, t in titles.items()},
                         keys)}


def variation_values(numbers: Mapping[str, object] | None) -> dict[str, object]:
    """Chapter 09.1 at variation level: ``numbers`` (``libraries.variation_numbers``) and ``var_reading``, what
    the share of wrong answers naming the right task file says (:func:`task_right_reading`); "—" under every
    key of :data:`VARIATION_KEYS` when the variation level did not run (``numbers`` None)."""
    if numbers is None:
        return dict.fromkeys(VARIATION_KEYS, "—")
    return {**numbers, "var_reading": task_right_reading(numbers["var_task_right"])}


def perturbation_values(table: pd.DataFrame, name: str) -> dict[str, object]:
    """The numbers and phrases chapter 08 glues for one perturbation (``table``: ``perturbation_table``).

    Keys are ``<name>_<what>``: ``signs`` (what each change's interval decides), ``low``/``low_ranker``,
    ``high``/``high_ranker``, ``big``/``big_ranker``/``big_lo``/``big_hi`` (the largest change in size);
    signed changes as :func:`shown` writes them; "—" everywhere when the perturbation was not run.
    """
    rows = table[table["perturbation"] == name].set_index("ranker")
    if rows.empty:
        return {f"{name}_{k}": "—" for k in ("signs", "low", "low_ranker", "high", "high_ranker", "big",
                                              "big_ranker", "big_lo", "big_hi")}
    col = rows["change"]
    low, high, big = col.idxmin(), col.idxmax(), col.abs().idxmax()
    return {f"{name}_{k}": v for k, v in {
        "signs": signs(rows["lo"], rows["hi"]), "low": shown(col[low], True), "low_ranker": label(low),
        "high": shown(col[high], True), "high_ranker": label(high),
        "big": shown(col[big], True), "big_ranker": label(big), "big_lo": shown(rows.loc[big, "lo"], True),
        "big_hi": shown(rows.loc[big, "hi"], True)}.items()}


# ------------------------------------------------------------------ the values chapters 01 to 05 glue
NAN = float("nan")


def spread_values(stats: pd.DataFrame, paper_table: Mapping, paper_rankers: Iterable[str]) -> dict:
    """Chapter 02: the best and worst of the paper's rankers (all rankers when none of the paper's
    ran), the best one's spread, and the best ranker beyond the paper against it (a dash and NaN when
    only the paper's rankers ran).

    ``stats``: ``across_galleries.summary_table`` indexed by ranker; ``paper_table``: ``paper.TABLE2``.
    """
    inside = stats.index.isin(list(paper_rankers))
    ours, extra = (stats[inside] if inside.any() else stats), stats[~inside]
    best, worst = leader(ours["mean"]), leader(-ours["mean"])
    b = ours.loc[best]
    top = leader(extra["mean"]) if len(extra) and inside.any() else best
    out = {"best": label(best), "best_mean": b["mean"], "best_min": b["min"], "best_max": b["max"],
           "best_p5": b["p5"], "best_p95": b["p95"], "best_range": b["max"] - b["min"],
           "best_paper": paper_table.get(best, {}).get("mean", NAN), "worst": label(worst),
           "worst_mean": ours.loc[worst, "mean"]}
    if inside.all():  # no ranker beyond the paper's ran: nothing to name
        return out | {"top_extra": "—", "top_extra_mean": NAN, "top_extra_gap": NAN}
    return out | {"top_extra": label(top), "top_extra_mean": stats.loc[top, "mean"],
                  "top_extra_gap": stats.loc[top, "mean"] - b["mean"]}


def paired_values(paired: pd.DataFrame | None, paper_paired: Mapping) -> dict:
    """Chapter 02: Char TF-IDF against BM25 (``cb``) and Word TF-IDF (``cw``), Word+Char against
    Char TF-IDF (``wc``), each with its paired interval and verdict, beside the paper's (``paper.PAIRED``);
    NaN where a pair did not run."""
    rows = {} if paired is None else {(r.a, r.b): r for r in paired.itertuples()}
    out = {}
    for key, pair in {"cb": ("char", "bm25"), "cw": ("char", "word"), "wc": ("word_char", "char")}.items():
        r = rows.get(pair)
        out |= {f"{key}_{c}": getattr(r, c) if r else NAN for c in ("verdict", "lo", "hi")}
        out[f"{key}_diff"] = r.mean_diff if r else NAN
        out |= {f"{key}_{c}": int(getattr(r, c)) if r else NAN for c in ("wins", "ties", "losses", "n_trials")}
    r = rows.get(("word_char", "char"))
    out["wc_record"] = record(int(r.wins), int(r.ties), int(r.losses)) if r else NAN
    pb, pw = paper_paired[("char", "bm25")], paper_paired[("char", "word")]
    return out | {"pb_diff": pb["mean_diff"], "pb_wins": pb["wins"], "pb_ties": pb["ties"],
                  "pb_n": pb["wins"] + pb["ties"] + pb["losses"], "pw_diff": pw["mean_diff"]}


def scoring_policy_values(policies: pd.DataFrame) -> dict:
    """Chapter 04: how far the policy moves a mean, whether the order holds, and Char TF-IDF minus
    BM25 under each policy (``policies``: ranker → strict, either, primary)."""
    orders = {tuple(policies[p].sort_values().index) for p in policies}
    out = {"max_shift": (policies.max(axis=1) - policies.min(axis=1)).max(),
           "order_same": "the same" if len(orders) == 1 else "not the same"}
    gaps = (policies.loc["char"] - policies.loc["bm25"]) if {"char", "bm25"} <= set(policies.index) else None
    out |= {f"gap_{p}": NAN if gaps is None else gaps[p] for p in ("strict", "either", "primary")}
    return out | {"gap_sign": NAN if gaps is None else one_sign(gaps)}


def first_listed_values(fl: pd.DataFrame, summary: pd.DataFrame, stated: Mapping) -> dict:
    """Chapter 04: Word+Char and Char TF-IDF on the first-listed gallery against their means, and
    how many rankers' first-listed accuracy lies inside their range over random galleries."""
    rng = summary.reindex(fl.index)
    inside = int(((rng["min"] <= fl["primary"]) & (fl["primary"] <= rng["max"])).sum())
    out = {"n_inside": how_many(inside, len(fl), "ranker"), "paper_wc": stated["word_char"],
           "paper_c": stated["char"]}
    if not {"char", "word_char"} <= set(fl.index):
        return out | dict.fromkeys(["fl_wc", "fl_c", "fl_n", "mean_wc", "mean_c", "fl_order"], NAN)
    wc, c = fl.loc["word_char", "primary"], fl.loc["char", "primary"]
    mwc, mc = summary.loc["word_char", "mean"], summary.loc["char", "mean"]
    return out | {"fl_wc": wc, "fl_c": c, "fl_n": int(fl.loc["char", "n_scored"]), "mean_wc": mwc,
                  "mean_c": mc, "fl_order": same_or_reversed(wc - c, mwc - mc)}


def duplicate_values(dup_pred: pd.DataFrame, fl: pd.DataFrame, gallery: Mapping[str, str]) -> dict:
    """Chapter 04: why strict and either-label scoring agree on the first-listed gallery.

    ``dup_pred``: the predictions of the duplicated text's copies (``ranker, task, text,
    predicted``); ``fl``: the first-listed table by ranker; ``gallery``: task → indexed text. The
    key ``applies`` is False when the explanation's premise (two unindexed copies, no ranker
    predicting an owner) fails.
    """
    from ..reproduction.error_analysis import content_words

    owners = sorted(set(dup_pred["task"]))
    text = dup_pred["text"].iloc[0] if len(dup_pred) else ""
    guess = dup_pred["predicted"].mode().iloc[0] if len(dup_pred) else ""
    hits = int(dup_pred.groupby("ranker")["predicted"].first().isin(owners).sum())
    shared = {t: content_words(text) & content_words(gallery.get(t, "")) for t in [guess, *owners]}
    equal = bool((fl["strict"] == fl["either"]).all())
    return {"applies": equal and not hits and len(owners) == 2 and len(dup_pred) == 2 * len(fl),
            "strict_either": "equal" if equal else "not equal", "n_hit": how_many(hits, len(fl), "ranker"),
            "dup_owners": " and ".join(owners), "dup_text": text, "dup_predicted": guess,
            "dup_predicted_text": gallery.get(guess, ""), "guess_words": ", ".join(sorted(shared[guess])),
            "owners_text": " and ".join(f"“{gallery[t]}”" for t in owners),
            "owner_words": ", ".join(sorted(set().union(*(shared[t] for t in owners)))) or "none"}


def matched_values(matched: pd.DataFrame, paper_table: Mapping) -> dict:
    """Chapter 03: the range of gains, the largest beside the paper's, the best two-description
    mean, how many rankers' gain intervals decide "higher" or leave it unresolved, and the paired
    counts (``matched``: ``across_galleries.matched_table``)."""
    gains = matched.set_index("ranker")
    top, best = leader(gains["diff"]), leader(gains["two"])
    said = gains["verdict"].value_counts()
    return {"gain_lo": gains["diff"].min(), "gain_hi": gains["diff"].max(), "top": label(top),
            "top_gain": gains.loc[top, "diff"], "top_paper": paper_table.get(top, {}).get("diff", NAN),
            "best_two": label(best), "best_two_mean": gains.loc[best, "two"],
            "n_gain": how_many(int(said.get("higher", 0)), len(gains), "ranker"),
            "n_gain_open": how_many(int(said.get("not resolved", 0)), len(gains), "ranker"),
            "n_better": int(matched["two_better"].sum()), "n_worse": int(matched["two_worse"].sum()),
            "n_cells": int(matched["n_trials"].sum())}


def corpus_size_values(per_trial: pd.DataFrame, n_texts: int, n_tasks: int, n_duplicates: int) -> tuple:
    """Chapter 05: which counts of scored queries the paper's stated percentages fit.

    Returns the table of ``paper.denominators`` (with ``fits_paper_234`` and ``fits_ours``) for the
    stated minima, maxima and first-listed percentages, and the values the prose glues. A minimum or
    maximum is checked against the counts a random gallery can score; a first-listed percentage against
    the one count that gallery scores (ours, and the paper's, one description more).
    """
    from ..reproduction import paper
    from .reproduction_tables import fits_counts

    stated = {f"table2.{r}.{s}": v for r, d in paper.TABLE2.items() for s, v in d.items() if s in ("min", "max")}
    stated |= {f"first_listed.{r}": v for r, v in paper.FIRST_LISTED.items()}
    candidates = n_texts - n_tasks
    window = range(candidates - 4, candidates + 5)
    dens = paper.denominators(stated, window)
    paper_n = {paper.CORPUS["queries_per_trial"] - k for k in range(3)}
    our_n = {candidates - k for k in range(n_duplicates + 1)}
    fl = per_trial.query("condition == 'first_listed' and policy == 'primary'")
    n_ours = int(fl["n_queries"].iloc[0])
    n_paper = n_ours + int(paper.CORPUS["queries_per_trial"]) - candidates
    first = dens["key"].str.startswith("first_listed")  # the first-listed gallery scores one fixed count
    dens["fits_paper_234"] = [fits_counts(pd.Series([f]), {n_paper} if one else paper_n)[0]
                              for f, one in zip(dens["fitting_n"], first)]
    dens["fits_ours"] = [fits_counts(pd.Series([f]), {n_ours} if one else our_n)[0]
                         for f, one in zip(dens["fitting_n"], first)]
    sets = [set() if f == "none" else set(map(int, f.split()))
            for f in dens.loc[dens["key"].str.startswith("first_listed"), "fitting_n"]]
    common = sorted(set.intersection(*sets)) if sets else []
    fit_paper, fit_ours = int(dens["fits_paper_234"].sum()), int(dens["fits_ours"].sum())
    return dens, {"paper_n": f"{min(paper_n)}–{max(paper_n)}", "our_n": f"{min(our_n)}–{max(our_n)}",
                  "n_stated": len(dens), "n_fit_paper": fit_paper, "n_fit_ours": fit_ours,
                  "window": f"{min(window)}–{max(window)}", "common": ", ".join(map(str, common)) or "none",
                  "n_fl_paper": n_paper, "n_fl_ours": n_ours, "fl_paper_fits": fits(n_paper, common),
                  "fl_ours_fits": fits(n_ours, common), "paper_descriptions": int(paper.CORPUS["descriptions"]),
                  "size_verdict": size_verdict(fit_paper, fit_ours, len(dens))}


def alternative_values(alt: pd.DataFrame | None) -> dict:
    """Chapter 05: the extraction readings that give the paper's counts and first-listed
    percentages, how far those with the paper's counts move the Char TF-IDF mean, and our
    committed corpus's Char TF-IDF offset from the paper (NaN when the readings did not run)."""
    from ..reproduction import paper
    from .reproduction_tables import fingerprint_readings, reading_names

    keys = ["n_same", "word_char_readings", "fingerprint", "char_lo", "char_hi", "char_move", "char_offset"]
    if alt is None:
        return dict.fromkeys(keys, NAN) | {"paper_char": paper.TABLE2["char"]["mean"]}
    same = (alt["tasks"] == paper.CORPUS["tasks"]) & (alt["descriptions"] == paper.CORPUS["descriptions"])
    word_char = alt.loc[alt["fl_word_char"].round(1) == paper.FIRST_LISTED["word_char"], "corpus"]
    base = alt.loc[alt["corpus"] == "committed", "mean_char"].item()
    return {"n_same": int(same.sum()), "word_char_readings": reading_names(word_char),
            "fingerprint": reading_names(fingerprint_readings(alt, paper.FIRST_LISTED)),
            "char_lo": alt["mean_char"].min(), "char_hi": alt["mean_char"].max(),
            "char_move": (alt.loc[same, "mean_char"] - base).abs().max() if same.any() else NAN,
            "paper_char": paper.TABLE2["char"]["mean"], "char_offset": base - paper.TABLE2["char"]["mean"]}


def corpus_values(tables: Mapping[str, pd.DataFrame], excluded: pd.DataFrame, per_task: pd.Series,
                 dups: pd.DataFrame, within: pd.DataFrame, glued: pd.DataFrame) -> dict:
    """Chapter 01: the accounting of the task files, descriptions per task, duplicates and glued
    literals (``tables``: ``fixed_corpus.committed_tables``; the rest from ``fixed_corpus``)."""
    accounting, literals = tables["accounting"], tables["literals"]
    files = accounting["status"].value_counts()
    left_out = {s: int(n) for s, n in files.items() if s != "fixed"}
    templated = excluded[excluded["status"] == "templated"]
    n_mixed = int((templated["n_fixed_literals"] > 0).sum())
    most = sorted(per_task.index[per_task == per_task.max()])
    umbrella = literals[literals["task"] == "put_umbrella_in_umbrella_stand"]
    return {"n_files": len(accounting), "n_fixed": int(files.get("fixed", 0)),
            "largest_status": leader(left_out), "largest_n": max(left_out.values()),
            "n_templated": len(templated), "n_mixed": n_mixed, "n_all_templated": len(templated) - n_mixed,
            "n_excluded": len(excluded), "per_low": int(per_task.min()), "per_high": int(per_task.max()),
            "per_median": float(per_task.median()), "most_tasks": ", ".join(most),
            "most_verb": "has" if len(most) == 1 else "have", "n_low": int((per_task == per_task.min()).sum()),
            "min_queries": int(per_task.min()) - 1, "n_dups": len(dups), "dup_text": dups["text"].iloc[0],
            "dup_tasks": dups["tasks"].iloc[0].replace(", ", " and "), "n_within": len(within),
            "within_text": within["text"].iloc[0], "within_rows": int(within["n_rows"].iloc[0]),
            "within_task": within["task"].iloc[0], "n_glued": len(glued),
            "n_glued_fixed": int((glued["status"] == "fixed").sum()),
            "umbrella_pieces": int(umbrella["pieces"].map(len).sum()), "umbrella_strings": len(umbrella)}


def rule_values(alternatives: pd.DataFrame, counts: Mapping[str, int], n_first_listed: int) -> dict:
    """Chapter 01: our corpus against the paper's, the extraction rules that give its counts, and
    which counts of scored queries its first-listed percentages fit (``alternatives``:
    ``versus_paper.rule_alternatives``; ``n_first_listed``: our first-listed scored queries)."""
    from ..reproduction import paper

    rules = alternatives.set_index("rule")
    single = alternatives[alternatives["rule"].str.startswith("split_one:")]
    uniform = [r for r in rules.index[rules["matches_paper"].astype(bool)] if not r.startswith("split_one:")]
    window = list(range(counts["queries_per_trial"] - 6, counts["queries_per_trial"] + 7))
    n_paper = n_first_listed + int(paper.CORPUS["queries_per_trial"]) - counts["queries_per_trial"]
    sets = [set(paper.attainable_denominators(paper.FIRST_LISTED[r], window)) for r in ("word_char", "char")]
    consistent = sorted(sets[0] & sets[1])
    return {"tasks_vs_paper": fewer_or_more(counts["tasks"] - int(paper.CORPUS["tasks"]), "task"),
            "descriptions_vs_paper": fewer_or_more(counts["descriptions"] - int(paper.CORPUS["descriptions"]),
                                                   "description"),
            "paper_vs_ours": fewer_or_more(int(paper.CORPUS["descriptions"]) - counts["descriptions"], "description"),
            "paper_tasks": int(paper.CORPUS["tasks"]), "paper_descriptions": int(paper.CORPUS["descriptions"]),
            "every_tasks": int(rules.loc["split_glued", "tasks"]),
            "every_descriptions": int(rules.loc["split_glued", "descriptions"]), "n_single": len(single),
            "n_match": int(single["matches_paper"].sum()), "uniform_rules": ", ".join(uniform) or "none",
            "only_capital": uniform == ["split_capital"], "fl_word_char": paper.FIRST_LISTED["word_char"],
            "fl_char": paper.FIRST_LISTED["char"], "n_lo": min(window), "n_hi": max(window),
            "n_paper": n_paper, "n_ours": n_first_listed, "consistent": ", ".join(map(str, consistent)) or "none",
            "paper_fits": fits(n_paper, consistent), "ours_fits": fits(n_first_listed, consistent)}
