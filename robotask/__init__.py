"""robotask: support package for the robotask study book.

The notebooks in ``notebooks/`` narrate the experiments; every experimental
step they run is one function of this package.
"""

__version__ = "0.1.0"
