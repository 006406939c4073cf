"""What the players see: captions and keyboards (``presenter``), the board pictures sent and
edited by the painter (``painter``, ``inline_board``), the post-game analysis (``review``)
and the replay (``replay``). They build on the core and the adapters; they never import the
services, the pipeline or the handlers (``tests/test_imports.py``).
"""
