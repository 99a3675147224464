"""The rankers: lexical (BM25, TF-IDF, LSA), sentence embeddings (MiniLM), and the registry naming them all.

``embedding`` imports torch and sentence-transformers only inside the functions that encode, so this front door
loads no torch: that happens when MiniLM first embeds a text.
"""

from .embedding import embed, n_encoded, time_embedding, use_disk_cache
from .lexical import (
    BM25_TOKEN_PATTERN,
    LSA_SVD_MAX_SIDE,
    PAPER_SETTINGS,
    SETTING_NAMES,
    TextIndex,
    cosine_rows,
    lsa_basis,
)
from .registry import LABELS, PAPER_RANKERS, RANKERS, check_rankers, display, score_minilm

__all__ = [
    "BM25_TOKEN_PATTERN", "LABELS", "LSA_SVD_MAX_SIDE", "PAPER_RANKERS", "PAPER_SETTINGS", "RANKERS", "SETTING_NAMES",
    "TextIndex", "check_rankers", "cosine_rows", "display", "embed", "lsa_basis", "n_encoded", "score_minilm",
    "time_embedding", "use_disk_cache",
]
