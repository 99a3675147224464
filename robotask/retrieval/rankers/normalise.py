"""The one text normalisation every ranker sees: the same text in any Unicode form ranks the same.

:func:`normalise` is applied to every gallery, query and corpus text before a ranker scores it
(:func:`robotask.retrieval.rankers.registry.score` and :class:`robotask.retrieval.rankers.lexical.TextIndex`),
and the corpus reader compares texts in this form when it looks for repeats. In order:

1. **invisible code points removed**: format characters (Unicode category ``Cf``: zero-width space,
   zero-width (non-)joiner, word joiner, byte-order mark, soft hyphen, bidirectional marks) and control
   characters (``Cc``) other than whitespace;
2. **Unicode NFC**: canonically equivalent sequences become one (``e`` + combining acute accent, as macOS
   file systems and some editors write it, becomes ``é``);
3. **whitespace collapsed**: every run of whitespace (spaces, tabs, line breaks, no-break spaces) becomes one
   space, none at either end.

NFC, not NFKC: canonical equivalence is Unicode's definition of *the same text*, and NFC never changes what
a text says. NFKC also folds *compatibility* characters, which is lossy ("x²" becomes "x2", "½" becomes
"1⁄2", a ligature becomes letters) and would silently change a user's text; a lexical ranker already
lower-cases. The texts written to results files stay as authored: only what the rankers see and what the
repeat checks compare is normalised. Every corpus the study ships is ASCII (RoboCasa holds a typographic
apostrophe, which NFC keeps), and every tokeniser the rankers use splits on whitespace runs, so the
paper's numbers are unchanged by it.
"""

from __future__ import annotations

import functools
import sys
import unicodedata

FORM = "NFC"
INVISIBLE_CATEGORIES = ("Cf", "Cc")
"""Unicode categories removed (format and control characters); whitespace controls are collapsed instead."""


@functools.cache
def _removed() -> dict[int, None]:
    """``str.translate`` table deleting every invisible code point (built once, on the first non-ASCII text)."""
    return {c: None for c in range(sys.maxunicode + 1)
            if unicodedata.category(chr(c)) in INVISIBLE_CATEGORIES and not chr(c).isspace()}


_ASCII_REMOVED = {c: None for c in range(128) if unicodedata.category(chr(c)) == "Cc" and not chr(c).isspace()}


@functools.lru_cache(maxsize=1 << 16)
def normalise(text: str) -> str:
    """``text`` with invisible code points removed, in Unicode NFC, whitespace runs collapsed (module docstring).

    Remembered per text: a study normalises the same few hundred texts about 200,000 times."""
    if text.isascii():
        if not text.isprintable():
            text = text.translate(_ASCII_REMOVED)
    else:
        text = unicodedata.normalize(FORM, text.translate(_removed()))
    return " ".join(text.split())


def normalise_all(texts: list[str]) -> list[str]:
    """:func:`normalise` of each text, in order."""
    return [normalise(t) for t in texts]
