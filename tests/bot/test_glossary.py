"""One word per idea: every language's catalogs keep to its glossary (bot/locales/glossary/),
and the check would have caught the Dutch and Italian rows of issue 27; one register per
language (ty, tu, du …), and the check would have caught the Russian row of issue 47."""
from __future__ import annotations

import json

import pytest

from bot import register
from bot.glossary import (SOURCES, check, glossary, glossary_path, pattern, stale_exceptions,
                          texts)
from bot.i18n import LANGUAGES, catalogs


def test_every_language_has_a_glossary_with_the_same_ideas():
    english = set(glossary("en"))
    assert len(english) >= 30
    for language in LANGUAGES:
        data = json.loads(glossary_path(language).read_text(encoding="utf-8"))
        assert data["language"] == language
        assert set(data["ideas"]) == english, (language, sorted(set(data["ideas"]) ^ english))
    # Each of Discord's permission labels the bot names (perm.*) has its idea.
    perms = {key.removeprefix("perm.") for key in catalogs()["en"] if key.startswith("perm.")}
    assert {f"discord.perm.{name}" for name in perms} <= english


@pytest.mark.parametrize("language", LANGUAGES)
def test_glossary_entries_say_what_where_from_and_what_not(language):
    book = catalogs()[language]
    for idea, spec in glossary(language).items():
        assert isinstance(spec["term"], str) and spec["term"].strip(), (language, idea)
        assert spec["source"] in SOURCES, (language, idea, spec["source"])
        assert spec["ref"].strip(), (language, idea)
        assert all(isinstance(w, str) and w.strip() for w in spec["ruled_out"]), (language, idea)
        for key, reason in spec.get("exceptions", {}).items():
            assert key in book and reason.strip(), (language, idea, key)
        for reason in spec.get("also", {}).values():
            assert reason.strip(), (language, idea)
        # A glossary never rules out its own term.
        chosen = [spec["term"], *spec.get("forms", []), *spec.get("also", {})]
        for word in spec["ruled_out"]:
            assert not any(pattern(word).fullmatch(c) for c in chosen), (language, idea, word)


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogs_use_no_word_the_glossary_rules_out(language):
    found = check(language)
    assert not found, "\n".join(map(str, found))
    assert not stale_exceptions(language)


@pytest.mark.parametrize("language", LANGUAGES)
def test_chosen_terms_are_the_ones_the_catalogs_use(language):
    """A glossary describes the catalogs, not wishes: each term (or one of its forms) is used,
    and the keys an idea names (Discord's labels) carry the term exactly."""
    book = catalogs()[language]
    every_text = [text for entry in book.values() for text in texts(entry)]
    for idea, spec in glossary(language).items():
        words = [spec["term"], *spec.get("forms", [])]
        assert any(pattern(w).search(text) for w in words for text in every_text), (language, idea)
        for key in spec.get("keys", []):
            for text in texts(book[key]):
                assert spec["term"] in text, (language, idea, key, text)


def test_ruled_out_words_match_on_word_boundaries_whatever_the_case():
    assert pattern("spellen").search("Spellen lopen")
    assert not pattern("spellen").search("Bordspellen")
    assert not pattern("spel").search("spelers")
    assert pattern("potje*").search("twee potjes")
    assert pattern("in deze server").search("Resultaten In  deze\nserver")
    assert not pattern("in deze server").search("in deze servers")
    assert pattern("просроч*").search("без ПРОСРОЧЕННОГО времени")
    # a placeholder is not text
    assert not check("nl", {"k": "{spellen}"}, {"x": {"term": "partij", "ruled_out": ["spellen"]}})


#: Dutch values before issue 27, as they were (the rows the review found)
OLD_NL = {
    "stats.games": {"one": "{count} spel", "other": "{count} spellen"},
    "history.title": "Laatste spellen",
    "cmd.general.history.description": "De laatst afgeronde spellen in deze server",
    "stats.none": "Nog geen afgeronde spellen.",
    "history.none": "Nog geen afgeronde spellen.",
    "stats.member_none": "{member} heeft in deze server nog geen afgeronde spellen die meetellen.",
    "cmd.general.stats.description": "Spelresultaten in deze server",
    "stats.title": "Resultaten in deze server",
    "config.saved": "Opgeslagen: nieuwe lobby's voor {game} in deze server beginnen met {clock}.",
    "config.show": "**Spelinstellingen in deze server**\n{lines}",
    "cmd.config.language.description":
        "Kies de taal van de spelberichten en bordafbeeldingen in deze server",
    "config.language_saved": "Nieuwe tafels in deze server spreken voortaan {language} in het "
                             "openbaar (persoonlijke antwoorden krijgt elke speler nog steeds in "
                             "de eigen Discord-taal).",
    "cmd.reminders.description":
        "Beurtherinneringen per privébericht: aan of uit (voor jou, in elke server)",
    "leaderboard.you_none": "Je hebt hier nog geen rating voor {game}: speel een partij die telt "
                            "uit (tegen mensen, niemand over de tijd).",
    "error.which_table": "Je speelt meerdere spellen in dit kanaal ({tables}) en je bent niet in "
                         "precies één ervan aan de beurt: gebruik de knoppen op het bord.",
    "error.no_table_here": "Je hebt in dit kanaal geen lopend potje {game}: gebruik de opdracht "
                           "in de thread van het spel.",
}

#: Italian values before issue 27
OLD_IT = {
    "perm.view_channel": "Visualizzare il canale",
    "perm.send_messages": "Inviare messaggi",
    "perm.send_messages_in_threads": "Inviare messaggi nei thread",
    "perm.embed_links": "Incorporare link",
    "perm.attach_files": "Allegare file",
    "perm.read_message_history": "Leggere la cronologia dei messaggi",
    "error.host_only_cancel": "Solo l'host o un membro con il permesso Gestire il server può "
                              "annullare questo tavolo.",
    "cmd.config.description": "Impostazioni dei giochi per il server (Gestire il server)",
    "config.manage_only": "Solo i membri con il permesso **Gestire il server** possono "
                          "modificare le impostazioni del server.",
    "leaderboard.title": "**Classifica di {game} su questo server** — pagina {page} di {pages}",
}


#: Spanish: Sensei's setup option was named "inicio" (start); the other es rows are word order
#: and a missing word, which no word list can see, and the accents (tests/bot/test_command_names.py)
OLD_ES = {"cmd.name.setup": "inicio"}


@pytest.mark.parametrize("language, old", [("nl", OLD_NL), ("it", OLD_IT), ("es", OLD_ES)])
def test_the_check_would_have_caught_the_rows_of_issue_27(language, old):
    found = check(language, old)
    assert {f.key for f in found} == set(old), sorted(set(old) - {f.key for f in found})
    # … and they are fixed now.
    assert not check(language, {key: catalogs()[language][key] for key in old})


def test_what_the_dutch_check_says_about_the_old_rows():
    by_key = {f.key: f for f in check("nl", OLD_NL)}
    assert by_key["stats.games"].idea == "match" and by_key["stats.games"].term == "partij"
    assert by_key["stats.title"].idea == "server" and by_key["stats.title"].found == "in deze server"
    assert by_key["cmd.reminders.description"].found == "in elke server"
    assert by_key["error.no_table_here"].found == "potje"
    assert by_key["leaderboard.you_none"].idea == "timeout"


# -- register: one way of speaking to the reader per language (issue 47) --------------------

#: Russian values before issue 47: вы and its imperatives in texts that say ты to one player
OLD_RU = {
    "cmd.sarena.description": "Sàréná: складывайте и переворачивайте двусторонние жетоны; "
                              "твой цвет — тайна",
    "sensei.step.planned": "Запланировано: {actions} — ничего не сыграно, пока вы не отправите ход.",
    "sensei.step.ready": "Ваш ход готов: отправьте его или отмените действие.",
    "sensei.step.ready_win": "Это действие выигрывает партию: отправьте ход, чтобы сыграть его.",
    "review.pending": "Разбор партии {game} #{table} готовится: он будет готов примерно через "
                      "минуту после конца партии. Попробуйте чуть позже.",
    "lobby.open": "{host} открывает стол {game}. Присоединяйтесь кнопкой!",
}
#: French and Polish rows of the same kind, fixed with them
OLD_FR = {"review.pending": "L'analyse de {game} #{table} est en préparation\u00a0: elle sera "
                            "prête environ une minute après la fin de la partie. Réessayez dans "
                            "un instant.",
          "review.none": "{game} se joue en équipe, il n'y a donc pas d'analyse\u00a0: revoyez la "
                         "partie, elle montre son par."}
OLD_PL = {"review.none": "W grze {game} gracie drużynowo, więc nie ma analizy: powtórka gry "
                        "pokazuje za to jej par."}


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_glossary_names_its_register(language):
    spec = register.register(language)
    assert spec["address"].strip() and spec["about"].strip()
    book = catalogs()[language]
    for key, reason in spec.get("group", {}).items():
        assert key in book and reason.strip(), (language, key)
    assert (language == "en") == (language not in register.RULES)


@pytest.mark.parametrize("language", LANGUAGES)
def test_catalogs_keep_to_their_register(language):
    slips = register.check(language)
    assert not slips, "\n".join(map(str, slips))
    assert not register.stale_groups(language)


@pytest.mark.parametrize("language, old", [("ru", OLD_RU), ("fr", OLD_FR), ("pl", OLD_PL)])
def test_the_register_check_would_have_caught_the_rows_of_issue_47(language, old):
    found = register.check(language, old)
    assert {s.key for s in found} == set(old), sorted(set(old) - {s.key for s in found})
    # … and they are fixed now.
    assert not register.check(language, {key: catalogs()[language][key] for key in old})


def test_what_the_russian_check_says_about_the_sarena_row():
    slips = register.check("ru", {"cmd.sarena.description": OLD_RU["cmd.sarena.description"]})
    assert [(s.found, s.address) for s in slips] == [("складывайте", "ты")]
    assert "вы-verb" in str(slips[0])


#: per language: texts in the register its catalogs must not use, and texts that only look so
EXAMPLES = {
    "ru": (["Нажмите кнопку, чтобы продолжить.", "Это ваша карта.", "Вы ходите первым.",
            "Не отвлекайтесь!"],
           ["Нажми кнопку, твой ход.", "Сейчас ходишь ты; подробности на сайте.",
            "Достигнут лимит: в лимите 25 стопок."]),
    "pl": (["Kliknijcie przycisk.", "Czy Pan chce zagrać?", "To wasza tura.", "Zagrajmy jeszcze raz!",
            "Wygrywacie razem."],
           ["Kliknij przycisk.", "Na liście są tylko twoje ruchy; czekamy na przesunięcie.",
            "Warunek na tej karcie; na starcie zaczynamy, liczymy punkty.", "Twoja tura."]),
    "fr": (["Cliquez sur le bouton.", "C'est votre tour.", "Réessayez plus tard."],
           ["Clique sur le bouton, c'est ton tour.", "Reviens chez toi assez vite."]),
    "de": (["Klicken Sie auf den Button.", "Die Karte gehört Ihnen.", "Das ist Ihr Zug.",
            "Das ist euer Tisch."],
           ["Die Analyse wird erstellt: Sie ist bald fertig.", "Ihre Bedingung bestimmt, was du nimmst.",
            "**Ende.** Ihr gewinnt zusammen.", "Deine Zeit ist fast um – sie läuft ab."]),
    "nl": (["Kies uw kaart.", "Het is aan u.", "Jullie winnen samen."],
           ["Kies je kaart.", "Nog {hours} u over, jij bent aan de beurt.", "Nog 3 u."]),
    "es": (["Pulse el botón.", "Es su turno, usted elige.", "Pulsad el botón.", "Tenéis tres cartas.",
            "Os toca a vosotros."],
           ["Pulsa el botón: la mitad del tiempo.", "Una IA juega hasta que pulse «He vuelto».",
            "Su carta…", "La probabilidad de ganar, en la red."]),
    "it": (["Premete il pulsante.", "Non rivelate la carta.", "Tocca a Lei, come sempre.",
            "È il vostro turno.", "Partita finita: scelga la rivincita."],
           ["Premi il pulsante.", "Le partite giocate: sono elencate solo le mosse consentite.",
            "Caselle non consentite: riprova.", "Lei? No: tocca a te.",
            "Ana giochi come vuoi, usi il pulsante."]),
}


@pytest.mark.parametrize("language", sorted(EXAMPLES))
def test_each_language_rule_finds_the_other_register_and_only_it(language):
    wrong, right = EXAMPLES[language]
    for text in wrong:
        assert register.check(language, {"k": text}, group={}), (language, text)
    for text in right:
        slips = register.check(language, {"k": text}, group={})
        assert not slips, (language, text, [str(s) for s in slips])


def test_a_group_text_may_speak_in_the_plural_never_politely():
    group = {"k": "speaks to every player of a cooperative game"}
    assert not register.check("ru", {"k": "Вместе выложите камни; вы побеждаете."}, group=group)
    assert register.check("ru", {"k": "Вместе выложите камни."}, group={})
    assert register.check("de", {"k": "Klicken Sie hier."}, group=group)
    assert register.check("pl", {"k": "Czy Pani gra?"}, group=group)
    assert not register.check("pl", {"k": "Wspólnie ułóżcie kamienie."}, group=group)


@pytest.mark.parametrize("language", LANGUAGES)
def test_narabi_conditions_speak_of_cards_as_the_rest_of_the_game_does(language):
    """A condition lets you switch with another card (issue 54: "Switch only with an odd
    stone" where every button and line says card): each condition that names the other
    card uses the glossary's word for a card, and none uses its word for a stone."""
    book = catalogs()[language]
    ideas = glossary(language)
    card = [ideas["card"]["term"], *ideas["card"].get("forms", [])]
    stone = [ideas["stone"]["term"], *ideas["stone"].get("forms", [])]
    naming_a_card = ("white", "dark", "even", "odd", "higher", "lower", "mid", "high3", "low4",
                     "free")
    for condition in naming_a_card:
        text = book[f"narabi.condition.{condition}"].lower()
        assert any(word.lower()[:4] in text for word in card), (language, condition, text)
        assert not any(word.lower() in text for word in stone), (language, condition, text)
