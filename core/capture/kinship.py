"""Family words across languages: "Mãe", "Mum" and "my mother" name one relation.

A person's contacts carry the word they use ("Mãe", "mana", "sogra", "tio Zé", "Oma"); they ask
in another ("my mother", "my sister", "my mother-in-law", "my uncle"). Each relation below lists
its words in English, Portuguese, Spanish, German and French (folded: lower case, no accents), so
a kinship word in a question resolves to the contact whose name or alias holds the same relation.
A closed class of words, not a thesaurus: only family and godparent relations, and none that is
also an everyday word or a short name ("ma", "Mari", "prima", "Frau").
"""

from __future__ import annotations

from core.when.words import fold

_RELATIONS: dict[str, tuple[str, ...]] = {
    "mother": (
        "mother",
        "mum",
        "mom",
        "mam",
        "mummy",
        "mommy",
        "mama",
        "mae",
        "mamae",
        "mamã",
        "madre",
        "mamá",
        "mutter",
        "mutti",
        "maman",
        "mere",
    ),
    "father": ("father", "dad", "daddy", "papa", "pai", "papai", "padre", "papá", "vater", "vati", "pere"),
    "sister": ("sister", "sis", "irma", "mana", "hermana", "schwester", "soeur", "sœur", "frangine"),
    "brother": ("brother", "bro", "irmao", "mano", "hermano", "bruder", "frere", "frangin"),
    "grandmother": (
        "grandmother",
        "grandma",
        "granny",
        "nana",
        "nanna",
        "avó",
        "vó",
        "vovó",
        "abuela",
        "abuelita",
        "oma",
        "grossmutter",
        "großmutter",
        "mamie",
        "grand-mere",
    ),
    "grandfather": (
        "grandfather",
        "grandpa",
        "grandad",
        "granddad",
        "gramps",
        "avô",
        "vô",
        "vovô",
        "abuelo",
        "abuelito",
        "opa",
        "grossvater",
        "großvater",
        "papi",
        "papy",
        "grand-pere",
        "pepe",
    ),
    "aunt": ("aunt", "auntie", "aunty", "tia", "tía", "tante"),
    "uncle": ("uncle", "tio", "tío", "onkel", "oncle", "tonton"),
    "mother-in-law": (
        "mother-in-law",
        "sogra",
        "suegra",
        "schwiegermutter",
        "schwiegermama",
        "belle-mere",
        "belle-maman",
    ),
    "father-in-law": (
        "father-in-law",
        "sogro",
        "suegro",
        "schwiegervater",
        "schwiegerpapa",
        "beau-pere",
        "beau-papa",
    ),
    "brother-in-law": ("brother-in-law", "cunhado", "cunado", "schwager", "beau-frere"),
    "sister-in-law": ("sister-in-law", "cunhada", "cunada", "schwagerin", "belle-soeur", "belle-sœur"),
    "godchild": (
        "godson",
        "goddaughter",
        "godchild",
        "afilhado",
        "afilhada",
        "ahijado",
        "ahijada",
        "patenkind",
        "patensohn",
        "patentochter",
        "filleul",
        "filleule",
    ),
    "godmother": ("godmother", "madrinha", "madrina", "patentante", "marraine"),
    "godfather": ("godfather", "padrinho", "padrino", "patenonkel", "parrain"),
    "cousin": ("cousin", "cousine", "vetter", "kusine"),
    "wife": ("wife", "esposa", "ehefrau", "epouse"),
    "husband": ("husband", "marido", "esposo", "ehemann", "epoux"),
}
# Accents folded (vô and vo, tía and tia are one word; folding keeps "ß" and "œ", so "großmutter"
# and "sœur" are listed as written too): grandparents' "avó"/"avô" fold alike,
# so a folded word may name two relations; the contact's own spelling decides (see relations_of).
_BY_WORD: dict[str, set[str]] = {}
_EXACT: dict[str, set[str]] = {}
for _rel, _words in _RELATIONS.items():
    for _w in _words:
        _BY_WORD.setdefault(fold(_w), set()).add(_rel)
        _EXACT.setdefault(_w.lower(), set()).add(_rel)

WORDS = frozenset(_BY_WORD)


def relations_of(word: str) -> frozenset[str]:
    """The relations a word names ("Mãe" -> {"mother"}, "sogra" -> {"mother-in-law"}); empty
    for anything else. Written with its accents, the word keeps them apart (avó/avô)."""
    exact = _EXACT.get(word.lower())
    if exact:
        return frozenset(exact)
    return frozenset(_BY_WORD.get(fold(word), ()))
