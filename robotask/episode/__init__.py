"""The Xperience-10M-style episode: on-disk format, media I/O, synthetic generator, loader.

Modules: ``format`` (file names, HDF5 paths, constants), ``media`` (PyAV video/audio),
``synth`` (the synthetic kitchen episode), ``loader`` (``load_episode`` → ``Episode``),
``figures`` (plots of notebook ``10_episode``). Features and windows live in sibling modules.
"""
