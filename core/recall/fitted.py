"""The fitted weights of recall's ranking, per sentence model (ranking.Weights, by field name).

Written by `python -m tests.eval.fit --write` (fitted on every space of the eval sets, after
cross-validation across people reported the left-out numbers); re-fit for another model with the
same command once its vectors are the default. Edit by hand only to try a value: the tool rewrites
this file.
"""

DEFAULT_MODEL = "all-MiniLM-L6-v2"

FITTED: dict[str, dict[str, float]] = {}
