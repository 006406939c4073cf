"""How the computer opponent's networks and search settings are made, and measured.

Offline tools, run by hand from the repository root (commands and results in
``engine/ai/weights/TRAINING.md``):

    train      TD(lambda) self-play of the evaluation networks (``python -m training.train``)
    combine    one weights file from a contact network and a race network
    rollfit    the reduced rolls of Difficile's deepest search layer (``<variant>-search.json``)
    distill    the contact network fitted towards its own one-ply values
    reference  the benchmarks' fixed opponents: random, greedy by pips, pubeval
    pubeval    Tesauro's public linear evaluator, one of those opponents

The opponent the bot runs is ``engine.ai``: it reads what these tools write (the weights
and the search settings) and never imports this package, so none of this code is loaded in
production. This package imports ``engine`` and ``engine.ai`` (their internals included)
and nothing from ``bot``, ``render`` or ``storage``.
"""
