"""Words of a question that name no topic, in English, Portuguese, Spanish, German and French:
function words, question words, and the verbs of asking ("what do I have", "o que tenho",
"was habe ich", "qu'est-ce que j'ai"). Folded (lower case, no accents), like core.when's tables.
What is left of a question once these are gone is its topic; nothing left means the question
only names a person or a time.
"""

from __future__ import annotations

import numpy as np

from core.when.words import fold

ENGLISH = """
    i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she
    her hers herself it its itself they them their theirs themselves what which who whom this that
    these those am is are was were be been being have has had having do does did doing a an the and
    but if or because as until while of at by for with about against between into through during
    before after above below to from up down in out on off over under again further then once here
    there when where why how all any both each few more most other some such no nor not only own
    same so than too very s t can will just don should now d ll m o re ve y ain aren couldn didn
    doesn hadn hasn haven isn ma mightn mustn needn shan shouldn wasn weren won wouldn
    whats what's who's where's when's how's it's i'm i've i'd let let's would could shall may might
    must also ever still
"""
PORTUGUESE = """
    o a os as um uma uns umas de do da dos das em no na nos nas ao aos à às por pelo pela pelos
    pelas para com sem sobre entre e ou mas que se não sim eu tu ele ela nós vós eles elas me te
    lhe nos vos lhes meu minha meus minhas teu tua seu sua nosso nossa isto isso aquilo este esta
    esse essa aquele aquela qual quais quem quando onde como porque porquê quanto quanta quantos
    quantas é são era foi fui fomos ser estar está estou estava tenho tens tem temos tinha tive
    teve há havia fiz fez fizemos faço sei sabe saber coisa coisas algo alguma algum tudo nada
    já ainda também muito pouco mais menos aqui ali lá então
"""
SPANISH = """
    el la los las un una unos unas de del al en por para con sin sobre entre y o u pero que se
    no sí yo tú él ella nosotros vosotros ellos ellas me te le nos os les mi mis tu tus su sus
    nuestro nuestra esto eso aquello este esta ese esa aquel aquella cuál cuáles quién quiénes
    cuándo dónde cómo qué porque por qué cuánto cuánta cuántos cuántas es son era fue fui fuimos
    ser estar está estoy estaba tengo tienes tiene tenemos tenía tuve hay había hice hizo hicimos
    hago sé sabe saber cosa cosas algo alguna alguno todo nada ya todavía también muy poco más
    menos aquí allí entonces hacer
"""
GERMAN = """
    der die das den dem des ein eine einen einem einer eines und oder aber nicht kein keine ich
    du er sie es wir ihr mich dich sich mir dir uns euch mein meine meinen meinem meiner dein
    deine sein seine ihr ihre unser unsere was wer wen wem wessen wann wo wie warum welche welcher
    welches wieviel ist sind war waren bin bist sein habe hast hat haben hatte hatten gibt gab
    mache macht gemacht weiß weiss wissen steht stehen an auf in im ins am aus bei mit nach von
    vor zu zum zur über unter um für bis durch ob dass denn da dann noch schon auch sehr mehr
    etwas alles nichts hier dort so los ja nein muss müssen soll sollte kann
"""
FRENCH = """
    le la les l un une des du de d au aux en dans par pour avec sans sur sous entre et ou mais
    que qu qui quoi ne pas non oui je j tu il elle on nous vous ils elles me m te t se s lui leur
    mon ma mes ton ta tes son sa ses notre nos votre vos ce c cet cette ces quel quelle quels
    quelles quand où comment pourquoi combien est sont était été suis es sommes être ai as a avons
    avez ont avait eu fait fais faire sais sait savoir chose choses quelque rien tout tous déjà
    encore aussi très plus moins ici là alors est-ce qu'est-ce qu'est ce qu'on j'ai c'est
"""

_LANGUAGES = {
    name: frozenset(fold(w) for w in block.split())
    for name, block in (("en", ENGLISH), ("pt", PORTUGUESE), ("es", SPANISH), ("de", GERMAN), ("fr", FRENCH))
}
ENGLISH_WORDS = _LANGUAGES["en"]


def language_of(words: list[str]) -> str:
    """The language whose function words `words` use most ("en", "pt", "es", "de", "fr";
    English on a tie): a question's own."""
    folded = [fold(w) for w in words]
    best, hits = "en", sum(w in ENGLISH_WORDS for w in folded)
    for name, table in _LANGUAGES.items():
        n = sum(w in table for w in folded)
        if name != "en" and n > hits:
            best, hits = name, n
    return best


def stopwords_for(words: list[str]) -> frozenset[str]:
    """English's stop words, plus those of the question's own language when it is another: the
    language whose function words the question uses most (English on a tie). Only then, so an
    English "son", "hay" or "bin" is never taken for French, Spanish or German."""
    best = language_of(words)
    return ENGLISH_WORDS if best == "en" else ENGLISH_WORDS | _LANGUAGES[best]


# A stored text's words as the index keeps them (English stemmed, its stop words gone): the other
# four languages' function words still show which one it is written in -- but not the ones that
# are also English words, stems or what is left of a contraction ("son", "die", "war", "pour",
# "hat", "ya", the "m" of "I'm"), and only two of them or more: on the eval sets' English memories
# (dev-personal, own-personal, households, LoCoMo) no note is then taken for another language.
_ALSO_ENGLISH = frozenset(
    """son die den bin war hat mit des pour par tout plus non sur mon ma ai ta ton sa ce ces era sim
    tu eu para con sin hay mi su fue ser este ten alle also am an as be in so was we ya chose wen ha
    er em te le""".split()
)
_WRITTEN_IN = ("pt", "es", "de", "fr")
# each such word, as written and folded, -> the languages (by their place in _WRITTEN_IN) it is one of
_WRITTEN: dict[str, tuple[int, ...]] = {}
for _i, _name in enumerate(_WRITTEN_IN):
    _block = {"pt": PORTUGUESE, "es": SPANISH, "de": GERMAN, "fr": FRENCH}[_name]
    for _word in _block.split():
        for _form in {_word, fold(_word)}:
            if len(_form) > 1 and _form not in _ALSO_ENGLISH and fold(_form) not in _ALSO_ENGLISH:
                _WRITTEN[_form] = tuple(sorted({*_WRITTEN.get(_form, ()), _i}))
WRITTEN_MIN_WORDS = 2


def written_in(lexemes: tuple[str, ...]) -> str:
    """The language a stored text is written in, from its lexemes: the one of Portuguese,
    Spanish, German and French whose function words it holds most, at least WRITTEN_MIN_WORDS
    of them (the first on a tie); else "en" -- English, or too short to tell."""
    counts = [0, 0, 0, 0]
    for lex in lexemes:
        for i in _WRITTEN.get(lex, ()):
            counts[i] += 1
    most = max(counts)
    return _WRITTEN_IN[counts.index(most)] if most >= WRITTEN_MIN_WORDS else "en"


def written_in_each(
    terms: list[str], flat: np.ndarray, starts: np.ndarray
) -> tuple[np.ndarray, tuple[str, ...]]:
    """`written_in` of many texts at once (a recall index's file: text k is the words
    `terms[c]` for c in `flat[starts[k]:starts[k + 1]]`): each text's language as its place in
    the names returned -- the same rule, counted with numpy over the few words that count."""
    names = (*_WRITTEN_IN, "en")
    counts = np.zeros((max(len(starts) - 1, 0), len(_WRITTEN_IN)), dtype=np.int32)
    per = np.zeros((len(terms), len(_WRITTEN_IN)), dtype=np.int32)
    for code, term in enumerate(terms):
        for i in _WRITTEN.get(term, ()):
            per[code, i] += 1
    counted = np.asarray(per.any(axis=1), dtype=bool)
    held = np.nonzero(counted[flat])[0] if len(flat) else np.zeros(0, dtype=np.int64)
    owners = np.searchsorted(starts, held, side="right") - 1
    np.add.at(counts, owners, per[flat[held]])
    best = counts.argmax(axis=1) if len(counts) else np.zeros(0, dtype=np.int64)  # the first on a tie
    best[counts.max(axis=1, initial=0) < WRITTEN_MIN_WORDS] = len(_WRITTEN_IN)
    return best, names
