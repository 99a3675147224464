"""Instruction libraries beyond RLBench, and the paper's protocol run on them.

- ``calvin``, ``robocasa``, ``robotwin``, ``libero``: derive ``data/<library>/`` from a checkout (``extracted``:
  the committed tables they wrote);
- ``libero_para``: derive ``data/libero_para/`` (LIBERO-Para's paraphrases, taxonomy and one policy's logged
  outcome on each);
- ``transfer`` (chapter ``09_transfer``) and ``transfer_tables`` (its tables and claim checks).
"""

from .calvin import (
    CALVIN_COLUMNS,
    CALVIN_OUT,
    CALVIN_PATH,
    CALVIN_REPOSITORY,
    NOTICE_HEADER,
    README,
    calvin_corpus,
    read_repository_file,
    write_calvin,
)
from .extracted import extraction_main, write_tables
from .libero import BDDL_ROOT, LANGUAGE, instruction_key, libero_rows, write_libero
from .libero_para import libero_para_rows, write_libero_para
from .robocasa import (
    SLOT_WORDS,
    SOURCE,
    TASK_COLUMN,
    TEXT_COLUMNS,
    decode_cell,
    fill_slots,
    robocasa_rows,
    slot_word,
    write_robocasa,
)
from .robotwin import (
    ARMS,
    ENVS,
    FILLS,
    OBJECTS,
    SLOT_COLUMNS,
    SPLITS,
    TEMPLATES,
    SlotFill,
    Unresolved,
    assignments,
    info_expressions,
    robotwin_rows,
    static_value,
    task_slots,
    write_robotwin,
)
from .transfer import (
    CATEGORIES,
    COLOURS,
    LIBRARIES,
    OPPOSITES,
    Library,
    LibraryRun,
    LibrarySpec,
    category,
    error_counts,
    error_examples,
    first_gallery,
    load_library,
    lsa_components,
    matched_subset,
    one_word_neighbours,
    overview,
    run_library,
    run_transfer,
    verify_examples,
)
from .transfer_tables import (
    CONFUSIONS,
    NEARLY_ALL,
    PAIRS,
    claim_verdicts,
    claims,
    error_shares,
    examples,
    gains,
    leader_table,
    long_summary,
    matched,
    near_shares,
    nearly_all_verdict,
    paired,
    sensitivity,
    signed,
    table2,
    variation_numbers,
)

__all__ = [
    "ARMS", "BDDL_ROOT", "CALVIN_COLUMNS", "CALVIN_OUT", "CALVIN_PATH", "CALVIN_REPOSITORY", "CATEGORIES",
    "COLOURS", "CONFUSIONS", "ENVS", "FILLS", "LANGUAGE", "LIBRARIES", "Library", "LibraryRun", "LibrarySpec",
    "NEARLY_ALL", "NOTICE_HEADER", "OBJECTS", "OPPOSITES", "PAIRS", "README", "SLOT_COLUMNS", "SLOT_WORDS",
    "SOURCE", "SPLITS", "SlotFill", "TASK_COLUMN", "TEMPLATES", "TEXT_COLUMNS", "Unresolved", "assignments",
    "calvin_corpus", "category", "claim_verdicts", "claims", "decode_cell", "error_counts", "error_examples",
    "error_shares",
    "examples", "extraction_main", "fill_slots", "first_gallery", "gains", "info_expressions", "instruction_key",
    "leader_table", "libero_para_rows", "libero_rows", "load_library", "long_summary", "lsa_components", "matched",
    "matched_subset", "near_shares", "nearly_all_verdict", "one_word_neighbours", "overview", "paired",
    "read_repository_file",
    "robocasa_rows", "robotwin_rows", "run_library", "run_transfer", "sensitivity", "signed", "slot_word",
    "static_value", "table2", "task_slots", "variation_numbers", "verify_examples", "write_calvin", "write_libero",
    "write_libero_para", "write_robocasa", "write_robotwin",
    "write_tables",
]
