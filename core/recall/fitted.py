"""The fitted weights of recall's ranking, per sentence model (ranking.Weights, by field name).

Written by `python -m tests.eval.fit --write` (fitted on every space of the eval sets, after
cross-validation across people reported the left-out numbers); re-fit for another model with the
same command once its vectors are the default. Edit by hand only to try a value: the tool rewrites
this file.
"""

DEFAULT_MODEL = "multilingual-e5-small"  # today's model: another falls back to its fit

FITTED: dict[str, dict[str, float]] = {
    "all-MiniLM-L6-v2": {
        "keyword_share": 0.5,
        "link": 0.45,
        "link_top": 0.8,
        "link_to_contact": 0.3,
        "link_from_contact": 0.6,
        "hub_damping": 0.5,
        "sitting": 0.4,
        "person": 0.25,
        "person_relevance": 0.0,
        "window": 0.5,
        "said": 0.25,
        "exact": 1.0,
        "contact": -0.2,
        "reminder": 0.0,
        "recency": 0.0,
    },
    "multilingual-e5-small": {
        "keyword_share": 0.5,
        "weak_keyword": 0.15,
        "link": 0.45,
        "link_top": 0.8,
        "link_to_contact": 0.3,
        "link_from_contact": 0.6,
        "hub_damping": 0.5,
        "sitting": 0.4,
        "person": 0.25,
        "person_relevance": 0.0,
        "window": 0.5,
        "said": 0.25,
        "exact": 1.0,
        "contact": -0.2,
        "reminder": 0.0,
        "recency": 0.0,
    },
}
