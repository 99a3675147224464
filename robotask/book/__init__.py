"""The book wing: run chapters with parameters, the chapter list, provenance and report helpers.

Tooling that knows nothing of either study: it imports only the core (``robotask.paths``, ``io``,
``errors``, ``progress``, ``plots``, ``cache``).
"""
