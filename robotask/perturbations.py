"""Controlled, deterministic perturbations of held-out queries, and their paired evaluation.

Used by notebook ``08_perturbations``. Section 4.1 of the paper calls for "targeted perturbation
tests to distinguish the contributions of inflection, spelling, object names, and directional
verbs"; each is one transformation here, applied to the query text only (galleries are untouched):

``inflection``
    Every clause-initial verb of the lexicon :data:`VERBS` (first word, or after ``and``, ``then``,
    ``to``, ``please`` or a comma) takes its third-person ``-s`` form or its ``-ing`` form
    (open → opens / opening, put → puts / putting, close → closes / closing). One of the two forms
    is chosen per query text by the seeded generator and used for all its verbs.
``spelling``
    One content word (not a function word, at least four letters) gets one typo: either two
    adjacent, different letters are swapped or one letter is deleted. Word, operation and position
    are drawn by the seeded generator.
``object_generic``
    Every object phrase — a maximal run of words that are neither function words, clause-initial
    verbs nor state words (:data:`NON_OBJECT`) — is replaced by the generic noun ``object``.
``object_removed``
    The object phrases are deleted together with a directly preceding article or possessive.
``direction_swap``
    Directional words are swapped by :data:`DIRECTION_SWAPS` (open↔close, on↔off, plug↔unplug,
    put↔take, up↔down, in↔out of, push↔pull, lift/raise↔lower, insert↔remove, …), all at once.
    The gold label of a swapped query becomes the *opposite task* of its source task when the
    corpus has one (:func:`opposite_tasks`); queries of tasks without an opposite are reported
    separately because no correct answer exists for them.

The generator of a query is ``numpy.random.default_rng([seed, crc32(text)])``, so a text is
perturbed identically in every draw and in any order. A perturbation that leaves a text unchanged
(e.g. no verb of the lexicon) marks it *not applicable*; accuracy changes are computed on the
applicable queries only, against the same queries unperturbed in the same galleries (paired).
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np
import pandas as pd

from .errors import RobotaskError

FUNCTION_WORDS = frozenset("""
a an the this that these those its it them they their your you his her one two three all any each
other another some of to and or then with without from into in on onto off out up down at by for
over under inside outside top back away so is are be been being until as just now please using use
which where there here such than while whilst when if not no until again also only through along
between towards toward above below behind beside near around across against upon within forth
about via before after during itself
""".split())
"""Words that never name an object (articles, pronouns, prepositions, particles, conjunctions)."""

NON_OBJECT = frozenset("""
open opened closed shut straight tight clean flat upright hot ready neatly together alone going
away down up off on most anti clockwise vertical directly
""".split())
"""State and manner words that are not object names (kept by the object perturbations)."""

VERBS = frozenset("""
open close shut put place set take pick lift raise lower push pull press turn twist rotate slide
plug unplug insert remove stack hang sweep wipe reach move grasp grab get screw unscrew drop flip
toggle switch empty fill throw hit hold leave touch tap knock beat play water solve sort scoop pour
straighten tighten lock unlock load unload retrieve fetch bring carry store return make change adjust
shoot score swing pot prepare arrange find point ensure heat preheat clean clear brush cover uncover
chuck flick grip use keep pot stop start shake pour hook unhook attach detach connect disconnect
""".split())
"""Base-form verbs the inflection perturbation recognises (clause-initial only)."""

CLAUSE_MARKERS = frozenset({"and", "then", "to", "please"})
IMPERATIVE_MARKERS = CLAUSE_MARKERS - {"to"}  # inflection leaves infinitives ("to open") alone
DOUBLE_FINAL = frozenset({"put", "set", "get", "plug", "unplug", "drop", "stop", "hit", "grab", "tap",
                          "flip", "shut", "pot", "grip"})
SPELLING_MIN_LENGTH = 4

DIRECTION_SWAPS: dict[str, str] = {
    "open": "close", "close": "open", "closed": "open", "shut": "open",
    "on": "off", "off": "on", "onto": "off",
    "plug": "unplug", "unplug": "plug",
    "put": "take", "take": "put", "place": "take",
    "up": "down", "down": "up",
    "in": "out of", "into": "out of", "out of": "in", "out": "in",
    "push": "pull", "pull": "push",
    "lift": "lower", "raise": "lower", "lower": "raise",
    "insert": "remove", "remove": "insert",
    "screw": "unscrew", "unscrew": "screw",
    "lock": "unlock", "unlock": "lock",
    "load": "unload", "unload": "load",
    "attach": "detach", "detach": "attach",
    "connect": "disconnect", "disconnect": "connect",
    "pick up": "pick up", "clean up": "clean up", "heat up": "heat up",
}
"""Directional word (or two-word phrase) → its opposite. Applied simultaneously, longest match first.

Phrasal verbs whose particle is not directional (``pick up``, ``clean up``, ``heat up``) map to
themselves so that their ``up`` is kept."""

CURATED_OPPOSITES: tuple[tuple[str, str], ...] = (
    ("insert_usb_in_computer", "take_usb_out_of_computer"),
    ("plug_charger_in_power_supply", "unplug_charger"),
    ("hang_frame_on_hanger", "take_frame_off_hanger"),
)
"""RLBench task pairs that are opposites but whose ids do not map onto each other by word swaps."""

_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?")


# --------------------------------------------------------------------------- text helpers
def tokens(text: str) -> list[tuple[str, bool]]:
    """Split ``text`` into alternating (chunk, is_word) pieces that join back to ``text``."""
    out, pos = [], 0
    for m in _WORD.finditer(text):
        if m.start() > pos:
            out.append((text[pos:m.start()], False))
        out.append((m.group(), True))
        pos = m.end()
    if pos < len(text):
        out.append((text[pos:], False))
    return out


def _match_case(template: str, word: str) -> str:
    """Return ``word`` capitalised like ``template`` (first letter only)."""
    return word[:1].upper() + word[1:] if template[:1].isupper() else word


def clause_initial(pieces: list[tuple[str, bool]], markers: frozenset[str] = CLAUSE_MARKERS) -> list[bool]:
    """For each piece, whether it is a word that starts a clause (first word, after a marker word or a comma).

    Parameters
    ----------
    pieces : list of (str, bool)
        Output of :func:`tokens`.
    markers : frozenset of str
        Words after which a clause starts (default: and, then, to, please).
    """
    flags, start = [], True
    for chunk, is_word in pieces:
        if not is_word:
            flags.append(False)
            if any(ch in chunk for ch in ",;:.!?"):
                start = True
            continue
        flags.append(start)
        start = chunk.lower() in markers
    return flags


def is_verb(word: str, initial: bool) -> bool:
    """A clause-initial word that is a lexicon verb or an -ing form."""
    w = word.lower()
    return initial and (w in VERBS or (w.endswith("ing") and len(w) > 4))


def third_person(verb: str) -> str:
    """Third-person singular of a base-form verb: open → opens, push → pushes, empty → empties."""
    if verb.endswith(("s", "sh", "ch", "x", "z", "o")):
        return verb + "es"
    if verb.endswith("y") and len(verb) > 1 and verb[-2] not in "aeiou":
        return verb[:-1] + "ies"
    return verb + "s"


def gerund(verb: str) -> str:
    """-ing form of a base-form verb: open → opening, close → closing, put → putting."""
    if verb in DOUBLE_FINAL:
        return verb + verb[-1] + "ing"
    if verb.endswith("ie"):
        return verb[:-2] + "ying"
    if verb.endswith("e") and not verb.endswith(("ee", "oe", "ye")) and len(verb) > 2:
        return verb[:-1] + "ing"
    return verb + "ing"


def text_rng(text: str, seed: int) -> np.random.Generator:
    """The generator of one query text: ``default_rng([seed, crc32(text)])``."""
    return np.random.default_rng([int(seed), zlib.crc32(text.encode("utf-8"))])


# --------------------------------------------------------------------------- perturbations
def perturb_inflection(text: str, seed: int = 0) -> str:
    """Inflect every imperative lexicon verb (-s or -ing form, one choice per text); "to open" is kept."""
    pieces = tokens(text)
    form = third_person if text_rng(text, seed).integers(2) == 0 else gerund
    out = []
    for (chunk, is_word), initial in zip(pieces, clause_initial(pieces, IMPERATIVE_MARKERS)):
        if is_word and initial and chunk.lower() in VERBS:
            chunk = _match_case(chunk, form(chunk.lower()))
        out.append(chunk)
    return "".join(out)


def perturb_spelling(text: str, seed: int = 0) -> str:
    """One typo (adjacent swap or deletion) in one content word of at least four letters."""
    pieces = tokens(text)
    content = [i for i, (c, w) in enumerate(pieces)
               if w and c.isalpha() and len(c) >= SPELLING_MIN_LENGTH and c.lower() not in FUNCTION_WORDS]
    if not content:
        return text
    rng = text_rng(text, seed)
    i = content[int(rng.integers(len(content)))]
    word = pieces[i][0]
    swaps = [k for k in range(len(word) - 1) if word[k] != word[k + 1]]
    if rng.integers(2) == 0 and swaps:
        k = swaps[int(rng.integers(len(swaps)))]
        new = word[:k] + word[k + 1] + word[k] + word[k + 2:]
    else:
        k = int(rng.integers(len(word)))
        new = word[:k] + word[k + 1:]
    pieces[i] = (new, True)
    return "".join(c for c, _ in pieces)


def object_spans(text: str) -> list[tuple[int, int]]:
    """Index ranges ``[start, end)`` of pieces forming object phrases (see module docstring)."""
    pieces = tokens(text)
    initial = clause_initial(pieces)
    spans, start = [], None
    for i, ((chunk, is_word), init) in enumerate(zip(pieces, initial)):
        w = chunk.lower()
        objectish = is_word and not (w in FUNCTION_WORDS or w in NON_OBJECT or is_verb(chunk, init))
        joiner = not is_word and chunk.strip(" -") == "" and start is not None
        if objectish:
            start = i if start is None else start
            end = i + 1
        elif not joiner and start is not None:
            spans.append((start, end))
            start = None
    if start is not None:
        spans.append((start, end))
    return spans


def _replace_objects(text: str, generic: str | None) -> str:
    """Replace (``generic``) or delete (None) every object phrase; tidy spaces when deleting."""
    pieces = tokens(text)
    spans = object_spans(text)
    if not spans:
        return text
    drop: set[int] = set()
    first: dict[int, int] = {}
    for s, e in spans:
        first[s] = e
        drop.update(range(s, e))
        if generic is None:
            j = s - 1
            if j >= 1 and pieces[j][1] is False and pieces[j][0].strip() == "" and \
                    pieces[j - 1][0].lower() in {"the", "a", "an", "its", "their", "this", "that", "your"}:
                drop.update((j - 1, j))
    out = []
    for i, (chunk, _) in enumerate(pieces):
        if i in first and generic is not None:
            out.append(_match_case(chunk, generic))
        elif i not in drop:
            out.append(chunk)
    joined = "".join(out)
    if generic is None:
        joined = re.sub(r"\s+([,.;:!?])", r"\1", re.sub(r"\s{2,}", " ", joined)).strip()
    return joined


def perturb_object_generic(text: str, seed: int = 0) -> str:
    """Replace every object phrase by the generic noun ``object``."""
    return _replace_objects(text, "object")


def perturb_object_removed(text: str, seed: int = 0) -> str:
    """Delete every object phrase and its preceding article or possessive."""
    return _replace_objects(text, None)


_SWAP_PATTERN = re.compile(
    r"\b(" + "|".join(sorted((re.escape(k).replace(r"\ ", r"\s+") for k in DIRECTION_SWAPS), key=len,
                             reverse=True)) + r")\b", re.IGNORECASE)


def swap_directions(text: str) -> str:
    """Swap every directional word or phrase of :data:`DIRECTION_SWAPS` (simultaneously)."""
    def repl(m: re.Match) -> str:
        key = re.sub(r"\s+", " ", m.group(0).lower())
        return _match_case(m.group(0), DIRECTION_SWAPS[key])

    return _SWAP_PATTERN.sub(repl, text)


def perturb_direction_swap(text: str, seed: int = 0) -> str:
    """Swap directional words (open↔close, on↔off, plug↔unplug, put↔take, …)."""
    return swap_directions(text)


@dataclass(frozen=True)
class Perturbation:
    """One registered perturbation: name, what it probes, one-line rule, function ``(text, seed) -> text``."""

    name: str
    probes: str
    rule: str
    fn: Callable[[str, int], str]


PERTURBATIONS: dict[str, Perturbation] = {p.name: p for p in (
    Perturbation("inflection", "inflection", "clause-initial verbs → -s or -ing form", perturb_inflection),
    Perturbation("spelling", "spelling", "one adjacent swap or deletion in one content word", perturb_spelling),
    Perturbation("object_generic", "object names", "object phrases → 'object'", perturb_object_generic),
    Perturbation("object_removed", "object names", "object phrases deleted", perturb_object_removed),
    Perturbation("direction_swap", "directional verbs", "open↔close, on↔off, plug↔unplug, put↔take, …",
                 perturb_direction_swap),
)}


def check_perturbations(names: Sequence[str] | str, where: str = "perturbations") -> list[str]:
    """Validate perturbation names (list or comma-separated string); raise listing the valid ones."""
    if isinstance(names, str):
        names = [n.strip() for n in names.split(",") if n.strip()]
    names = list(names)
    bad = [n for n in names if n not in PERTURBATIONS]
    if bad or not names:
        raise RobotaskError(f"{where}: unknown perturbation(s) {', '.join(map(repr, bad)) or '(none given)'}; "
                            f"valid: {', '.join(PERTURBATIONS)}")
    return names


def perturb(name: str, text: str, seed: int = 0) -> str:
    """Apply perturbation ``name`` to one text (unknown name → RobotaskError listing valid names)."""
    check_perturbations([name], "perturbation")
    return PERTURBATIONS[name].fn(text, seed)


def perturbation_examples(texts: Sequence[str], names: Sequence[str], seed: int, n: int = 2) -> pd.DataFrame:
    """The first ``n`` texts each perturbation changes: ``perturbation, original, perturbed``."""
    rows = []
    for name in check_perturbations(names):
        changed = [(t, perturb(name, t, seed)) for t in texts]
        rows += [{"perturbation": name, "original": a, "perturbed": b} for a, b in changed if a != b][:n]
    return pd.DataFrame(rows)


# --------------------------------------------------------------------------- opposite tasks
def opposite_tasks(tasks: Sequence[str]) -> dict[str, str]:
    """Task → its opposite task, where the corpus has one.

    Rule 1: swap the directional words of the task id (underscores read as spaces); if the result
    is another task id, the two are opposites (open_drawer ↔ close_drawer, lamp_on ↔ lamp_off,
    put_tray_in_oven ↔ take_tray_out_of_oven). Rule 2: the :data:`CURATED_OPPOSITES` pairs, when
    both tasks are present.
    """
    present = set(tasks)
    out: dict[str, str] = {}
    for task in sorted(present):
        swapped = swap_directions(task.replace("_", " ")).replace(" ", "_")
        if swapped != task and swapped in present:
            out[task] = swapped
    for a, b in CURATED_OPPOSITES:
        if a in present and b in present:
            out.setdefault(a, b)
            out.setdefault(b, a)
    return out


# --------------------------------------------------------------------------- evaluation
PER_QUERY_COLUMNS = ["trial", "ranker", "perturbation", "task", "position", "query_id", "text", "perturbed",
                     "applicable", "gold", "predicted_original", "predicted_perturbed", "correct_original",
                     "correct_perturbed", "stays_source"]


def perturbed_texts(texts: Sequence[str], names: Sequence[str], seed: int) -> dict[str, list[str]]:
    """Perturbation name → the perturbed version of every text (same order).

    Parameters
    ----------
    texts : sequence of str
        Corpus texts.
    names : sequence of str
        Perturbations to apply.
    seed : int
        Perturbation seed.
    """
    return {name: [PERTURBATIONS[name].fn(t, seed) for t in texts] for name in check_perturbations(names)}


def perturbation_gold(corpus: "protocol.Corpus", name: str, changed: np.ndarray) -> tuple[np.ndarray, np.ndarray]:  # noqa: F821
    """Gold task index of every corpus row after perturbation ``name``, and whether the row is evaluated.

    For ``direction_swap`` the gold label becomes the opposite task and only changed rows of tasks
    that have an opposite are evaluated; for every other perturbation the gold label is the source
    task and every changed row is evaluated.

    Parameters
    ----------
    corpus : robotask.protocol.Corpus
        The validated corpus.
    name : str
        Perturbation name.
    changed : numpy.ndarray
        Boolean per corpus row: the perturbation changed the text.
    """
    gold = corpus.task_of.copy()
    if name != "direction_swap":
        return gold, changed.copy()
    index = {t: j for j, t in enumerate(corpus.tasks)}
    opposite = {index[a]: index[b] for a, b in opposite_tasks(corpus.tasks).items()}
    has_opp = np.array([j in opposite for j in corpus.task_of])
    gold = np.array([opposite.get(int(j), int(j)) for j in corpus.task_of])
    return gold, changed & has_opp


def run_perturbations(corpus: "protocol.Corpus", ranker_names: Sequence[str], names: Sequence[str],  # noqa: F821
                      seed: int = 413, n_trials: int = 80, perturb_seed: int = 0,
                      params: dict | None = None, progress: bool = False) -> pd.DataFrame:
    """Score original and perturbed held-out queries in the same one-description galleries.

    The galleries are the primary draws of :func:`robotask.protocol.make_draws` (same seed, same
    trials as the five-ranker chapter); queries whose exact text belongs to several tasks are
    excluded (primary policy). Every query is scored unperturbed and under each perturbation in
    one ranker call per gallery.

    Parameters
    ----------
    corpus : robotask.protocol.Corpus
        The validated corpus.
    ranker_names : sequence of str
        Rankers from ``robotask.rankers.RANKERS``.
    names : sequence of str
        Perturbations from :data:`PERTURBATIONS`.
    seed, n_trials : int
        Draw seed and number of galleries (paper: 413 and 80).
    perturb_seed : int
        Seed of the seeded perturbations (spelling, inflection form).
    params : dict, optional
        Ranker settings (defaults: ``robotask.rankers.DEFAULTS``).
    progress : bool
        Show a tqdm bar over galleries.

    Returns
    -------
    pandas.DataFrame
        One row per (trial, ranker, perturbation, query) with :data:`PER_QUERY_COLUMNS`.
    """
    from robotask.progress import tqdm

    from . import protocol, rankers

    ranker_names = rankers.check_rankers(list(ranker_names))
    names = check_perturbations(names)
    draws = protocol.make_draws(corpus, seed, n_trials, 0)
    variants = perturbed_texts(corpus.texts, names, perturb_seed)
    all_texts = list(corpus.texts) + [t for name in names for t in variants[name]]
    index = rankers.TextIndex(all_texts)
    if any(r.startswith("minilm") for r in ranker_names):
        from . import embeddings

        embeddings.embed(all_texts)  # every vector once, in one fixed batch order
    texts = np.asarray(corpus.texts, dtype=object)
    gold = {}
    for name in names:
        changed = np.array([a != b for a, b in zip(corpus.texts, variants[name])])
        gold[name] = perturbation_gold(corpus, name, changed)
    frames = []
    for trial, perms in enumerate(tqdm(draws.primary, disable=not progress, desc="galleries", leave=False)):
        g_rows, g_task, q_rows = protocol.design_rows(corpus, perms, 1, 1)
        q_rows = q_rows[~corpus.duplicate[q_rows]]
        queries = texts[q_rows].tolist() + [variants[n][i] for n in names for i in q_rows]
        for ranker in ranker_names:
            sim = rankers.score(ranker, texts[g_rows].tolist(), queries, params, index=index)
            pred, _ = protocol.predict(sim, g_task, len(corpus.tasks))
            base = pred[:len(q_rows)]
            for k, name in enumerate(names):
                pp = pred[len(q_rows) * (k + 1): len(q_rows) * (k + 2)]
                g, evaluated = gold[name]
                frames.append(pd.DataFrame({
                    "trial": trial, "ranker": ranker, "perturbation": name,
                    "task": [corpus.tasks[j] for j in corpus.task_of[q_rows]],
                    "position": corpus.positions[q_rows],
                    "query_id": [f"{corpus.tasks[j]}:{p}" for j, p in zip(corpus.task_of[q_rows],
                                                                          corpus.positions[q_rows])],
                    "text": texts[q_rows], "perturbed": [variants[name][i] for i in q_rows],
                    "applicable": evaluated[q_rows], "gold": [corpus.tasks[j] for j in g[q_rows]],
                    "predicted_original": [corpus.tasks[j] for j in base],
                    "predicted_perturbed": [corpus.tasks[j] for j in pp],
                    "correct_original": base == corpus.task_of[q_rows],
                    "correct_perturbed": pp == g[q_rows],
                    "stays_source": pp == corpus.task_of[q_rows],
                }))
    return pd.concat(frames, ignore_index=True)[PER_QUERY_COLUMNS]


def _paired_frame(per_query: pd.DataFrame) -> pd.DataFrame:
    """Stack original and perturbed outcomes as pseudo-rankers ``<ranker>|<perturbation>|orig/pert``."""
    sub = per_query[per_query["applicable"]]
    parts = []
    for column, tag in (("correct_original", "orig"), ("correct_perturbed", "pert")):
        part = sub[["trial", "task", "query_id"]].copy()
        part["ranker"] = sub["ranker"] + "|" + sub["perturbation"] + "|" + tag
        part["correct"] = sub[column].astype(int)
        parts.append(part)
    return pd.concat(parts, ignore_index=True)


def perturbation_table(per_query: pd.DataFrame, n_bootstrap: int = 1000, seed: int = 413,
                       n_permutations: int = 20000) -> pd.DataFrame:
    """Per ranker and perturbation: coverage, accuracy before/after, paired change with interval and test.

    Accuracies are means over trials of the per-trial accuracy on the applicable queries (percent).
    The interval of the change is the percentile bootstrap of :mod:`robotask.uncertainty`
    (descriptions resampled within tasks and galleries resampled, shared by both arms); the P-value
    is the sign-flip permutation test over trials.

    Parameters
    ----------
    per_query : pandas.DataFrame
        Output of :func:`run_perturbations`.
    n_bootstrap, seed, n_permutations : int
        Bootstrap replicates, seed, and permutations.

    Returns
    -------
    pandas.DataFrame
        ``ranker, perturbation, n_per_trial, original, perturbed, change, lo, hi, p_perm,
        wins, ties, losses`` (wins = trials where the perturbed accuracy is higher) and
        ``stays_source`` (percent of perturbed predictions still naming the source task).
    """
    from . import uncertainty

    stacked = _paired_frame(per_query)
    pairs = [(f"{r}|{p}|pert", f"{r}|{p}|orig")
             for r in per_query["ranker"].unique() for p in per_query["perturbation"].unique()]
    pairs = [pq for pq in pairs if (stacked["ranker"] == pq[0]).any()]
    comp = uncertainty.paired_comparisons(stacked, pairs, n_bootstrap, seed, n_permutations)
    acc = uncertainty.trial_accuracy(stacked)
    app = per_query[per_query["applicable"]]
    stays = app.groupby(["ranker", "perturbation", "trial"])["stays_source"].mean().groupby(
        ["ranker", "perturbation"]).mean()
    counts = app.groupby(["ranker", "perturbation", "trial"]).size().groupby(["ranker", "perturbation"]).mean()
    rows = []
    for _, c in comp.iterrows():
        ranker, pert, _ = c["a"].split("|")
        rows.append({"ranker": ranker, "perturbation": pert, "n_per_trial": counts[(ranker, pert)],
                     "original": 100 * acc[c["b"]].mean(), "perturbed": 100 * acc[c["a"]].mean(),
                     "change": c["mean_diff"], "lo": c["lo"], "hi": c["hi"], "p_perm": c["p_perm"],
                     "wins": c["wins"], "ties": c["ties"], "losses": c["losses"],
                     "stays_source": 100 * stays[(ranker, pert)]})
    return pd.DataFrame(rows)


def no_opposite_stay_rate(per_query: pd.DataFrame) -> pd.Series:
    """Direction swaps on tasks without an opposite task: percent of predictions still naming the source task."""
    sub = per_query[(per_query["perturbation"] == "direction_swap") & ~per_query["applicable"]
                    & (per_query["text"] != per_query["perturbed"])]
    return 100 * sub.groupby("ranker", sort=False)["stays_source"].mean()
