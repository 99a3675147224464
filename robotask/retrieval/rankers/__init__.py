"""The rankers: lexical (BM25, TF-IDF, LSA), sentence embeddings (MiniLM), and the registry naming them all.

``embedding`` imports torch and sentence-transformers only inside the functions that encode, so this front door
loads no torch: that happens when MiniLM first embeds a text.
"""

from .embedding import embed, n_encoded, time_embedding, use_disk_cache
from .lexical import (
    BM25_TOKEN_PATTERN,
    LEXICAL_RANKERS,
    LSA_GRAM_MARGIN,
    LSA_SVD_MAX_SIDE,
    PAPER_SETTINGS,
    SETTING_NAMES,
    RankerSettings,
    TextIndex,
    analyzer_config,
    bm25_weights,
    cosine_rows,
    count_matrix,
    gallery_query_counts,
    lsa_basis,
    score_bm25,
    score_char,
    score_lsa,
    score_word,
    score_word_char,
    smooth_idf,
    tfidf_pair,
    tfidf_rows,
)
from .registry import (
    FUSION_PARTNER,
    LABELS,
    PAPER_RANKERS,
    RANKERS,
    RankerSpec,
    check_rankers,
    display,
    score_minilm,
    score_minilm_fusion,
    score_static,
)
from .static_embedding import (
    CONFIG,
    DIM,
    INSTALL,
    TENSOR,
    TOKENIZER,
    WEIGHTS,
    StaticEmbedder,
    default_embedder,
    shipped_files,
)

__all__ = [
    "BM25_TOKEN_PATTERN", "CONFIG", "DIM", "FUSION_PARTNER", "INSTALL", "LABELS", "LEXICAL_RANKERS",
    "LSA_GRAM_MARGIN", "LSA_SVD_MAX_SIDE", "PAPER_RANKERS", "PAPER_SETTINGS", "RANKERS", "RankerSettings",
    "RankerSpec", "SETTING_NAMES", "StaticEmbedder", "TENSOR", "TOKENIZER", "TextIndex", "WEIGHTS",
    "analyzer_config", "bm25_weights", "check_rankers", "cosine_rows", "count_matrix", "default_embedder",
    "display", "embed", "gallery_query_counts", "lsa_basis", "n_encoded", "score_bm25", "score_char", "score_lsa",
    "score_minilm",
    "score_minilm_fusion", "score_static", "score_word", "score_word_char", "shipped_files", "smooth_idf",
    "tfidf_pair", "tfidf_rows", "time_embedding", "use_disk_cache",
]
