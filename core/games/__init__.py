"""The games: one package each (``games/<id>/``), holding its rules module (``rules``: the module
docstring is the rules as implemented), its compiled hot twin if it has one (``hot``, compiled to
``hot_c``) and its tables. A package's ``GAME`` is the registered instance (``registry.py``).
"""
