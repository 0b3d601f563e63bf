"""German texts shared by every game: lobby, table life, errors, help, stats."""

from __future__ import annotations

GERMAN: dict[str, str] = {
    # Game titles (the engines' ``title``)
    "Geschenkt (No Thanks!)": "Geschenkt",
    "Give & Take": "Give & Take",
    "Escalation": "Eskalation",
    "TAKE": "TAKE",
    "Give and Take draughts": "Give-and-Take-Dame",
    # Slash commands shared by every game
    "Play {title} in this channel": "{title} in diesem Kanal spielen",
    "Take a seat at the table in this channel": "Am Tisch in diesem Kanal Platz nehmen",
    "Leave the table (a computer takes your seat in a running game)": (
        "Den Tisch verlassen (in einer laufenden Partie übernimmt ein Computer deinen Platz)"
    ),
    "See your private hand (only you see it)": "Deine Hand ansehen (nur du siehst sie)",
    "Post the table again at the bottom of the channel": (
        "Den Tisch noch einmal unten im Kanal zeigen"
    ),
    "End the game in this channel (host or moderators)": (
        "Die Partie in diesem Kanal beenden (Gastgeber oder Moderatoren)"
    ),
    "A short summary of the rules": "Eine kurze Zusammenfassung der Regeln",
    "The games this bot hosts": "Die Spiele dieses Bots",
    "Games played, wins and ratings here": "Partien, Siege und Wertungen auf diesem Server",
    "Whose stats (default: yours)": "Wessen Statistik (sonst deine)",
    "The best rated players of a game": "Die bestbewerteten Spieler eines Spiels",
    "Which game": "Welches Spiel",
    # Lobby
    "{title}: new table": "{title}: neuer Tisch",
    "A table for {players} players. Host: **{host}**.\n"
    "Press **Join** to take a seat; the host presses **Start**.": (
        "Ein Tisch für {players} Spieler. Gastgeber: **{host}**.\n"
        "Drück **Beitreten**, um Platz zu nehmen; der Gastgeber drückt **Starten**."
    ),
    "Players ({n}/{high})": "Spieler ({n}/{high})",
    "nobody yet": "noch niemand",
    "Options": "Optionen",
    "Player {n}": "Spieler {n}",
    "Join": "Beitreten",
    "Leave": "Verlassen",
    "Start": "Starten",
    "Add computer player…": "Computerspieler hinzufügen …",
    "Computer player: {level}": "Computerspieler: {level}",
    "🤖 Easy": "🤖 Leicht",
    "🤖 Normal": "🤖 Normal",
    "🤖 Hard": "🤖 Schwer",
    "You're clicking very fast; slow down for a few seconds.": (
        "Du klickst sehr schnell; warte ein paar Sekunden."
    ),
    "This table is busy right now; please try again in a moment.": (
        "Dieser Tisch ist gerade beschäftigt; versuch es gleich noch einmal."
    ),
    "This command has changed since your app loaded it; try again, or see `/help`.": (
        "Dieser Befehl hat sich geändert, seit deine App ihn geladen hat; versuch es noch "
        "einmal, oder sieh bei `/help` nach."
    ),
    "This server has as many tables going as it may ({n}); finish or abandon one first.": (
        "Auf diesem Server laufen so viele Tische wie erlaubt ({n}); beendet oder "
        "verlasst erst einen."
    ),
    "The game stored in this channel couldn't be read after an update, so it was set "
    "aside. Start a new one whenever you like.": (
        "Das Spiel in diesem Kanal ließ sich nach einem Update nicht mehr lesen und wurde "
        "beiseitegelegt. Startet ein neues, wann ihr wollt."
    ),
    "That button belongs to another game.": "Dieser Knopf gehört zu einem anderen Spiel.",
    "`{option}` is not an option of this command.": ("`{option}` ist keine Option dieses Befehls."),
    "`{option}` must be one of: {choices}.": "`{option}` muss eines davon sein: {choices}.",
    "`{option}` must be between {low} and {high}.": (
        "`{option}` muss zwischen {low} und {high} liegen."
    ),
    "`{option}` is too long (at most {n} characters).": (
        "`{option}` ist zu lang (höchstens {n} Zeichen)."
    ),
    "That button only works on your private panel.": (
        "Dieser Knopf funktioniert nur in deinem privaten Bereich."
    ),
    "easy": "leicht",
    "normal": "normal",
    "hard": "schwer",
    "Pick easy, normal or hard.": "Wähle leicht, normal oder schwer.",
    "You joined the table.": "Du hast am Tisch Platz genommen.",
    "You left the table.": "Du hast den Tisch verlassen.",
    "Everyone left; the table is closed.": "Alle sind gegangen; der Tisch ist geschlossen.",
    "The game has already started.": "Die Partie hat schon begonnen.",
    "The game has already started; wait for the next one.": (
        "Die Partie hat schon begonnen; warte auf die nächste."
    ),
    "You're already at this table.": "Du sitzt schon an diesem Tisch.",
    "The table is full ({n} players).": "Der Tisch ist voll ({n} Spieler).",
    "You're not at this table.": "Du sitzt nicht an diesem Tisch.",
    "Only the host can add computer players.": "Nur der Gastgeber kann Computerspieler hinzufügen.",
    "Only the host can start the game.": "Nur der Gastgeber kann die Partie starten.",
    "{title} needs at least {n} players; invite friends or add computer players.": (
        "{title} braucht mindestens {n} Spieler; lade Freunde ein oder füge Computerspieler hinzu."
    ),
    "{title} needs {players} players, not {n}.": ("{title} braucht {players} Spieler, nicht {n}."),
    "A player can take only one seat.": "Jeder Spieler kann nur einen Platz einnehmen.",
    "Invalid options: {error}": "Ungültige Optionen: {error}",
    "{text!r} is not a card.": "{text!r} ist keine Karte.",
    "Nobody started this table, so it has closed. Open a new one with `/{game} start`.": (
        "Niemand hat diesen Tisch gestartet, darum ist er geschlossen. Öffne einen neuen "
        "mit `/{game} starten`."
    ),
    "A {title} game is already running here; see `/{game} status`, "
    "or ask its host to abandon it.": (
        "Hier läuft schon eine Partie {title}; sieh mit `/{game} status` nach oder bitte "
        "den Gastgeber, sie abzubrechen."
    ),
    "Games are played in server channels.": "Gespielt wird in Server-Kanälen.",
    # The running table
    "{title}: results": "{title}: Ergebnis",
    "{title}: {panel}": "{title}: {panel}",
    "{title}: rules": "{title}: Regeln",
    "Game id for support: {gid}": "Partie-ID für den Support: {gid}",
    "{mentions}, your turn.": "{mentions}, du bist dran.",
    "My hand": "Meine Hand",
    "Refresh": "Aktualisieren",
    "Rematch": "Revanche",
    "{name} (computer)": "{name} (Computer)",
    "You played `{move}`.": "Du hast `{move}` gespielt.",
    "You're not playing in this game.": "Du spielst in dieser Partie nicht mit.",
    "You left this game; a computer player has your seat now.": (
        "Du hast diese Partie verlassen; jetzt sitzt ein Computerspieler auf deinem Platz."
    ),
    "You left the game and lost it.": "Du hast die Partie verlassen und damit verloren.",
    "You left the game; a computer player takes your seat.": (
        "Du hast die Partie verlassen; ein Computerspieler übernimmt deinen Platz."
    ),
    "You can't leave a running game; the host can end it with `/{game} abandon`.": (
        "Eine laufende Partie kannst du so nicht verlassen; der Gastgeber kann sie mit "
        "`/{game} abbrechen` beenden."
    ),
    "The game hasn't started yet.": "Die Partie hat noch nicht begonnen.",
    "This game is over.": "Diese Partie ist vorbei.",
    "This game is still running.": "Diese Partie läuft noch.",
    "Only the players of this game can start a rematch.": (
        "Nur die Spieler dieser Partie können eine Revanche starten."
    ),
    "That button was for an earlier moment of the game: someone moved first. "
    "Check the table and choose again.": (
        "Dieser Knopf gehörte zu einem früheren Stand der Partie: Jemand war schneller. "
        "Sieh dir den Tisch an und wähle noch einmal."
    ),
    "This table was posted again further down; use the newest one.": (
        "Dieser Tisch wurde weiter unten neu gezeigt; nimm den neuesten."
    ),
    "That button is not one I know.": "Diesen Knopf kenne ich nicht.",
    "That game has ended. Start a new one with `/{game} start`.": (
        "Diese Partie ist zu Ende. Starte eine neue mit `/{game} starten`."
    ),
    "That game is no longer available on this bot.": (
        "Dieses Spiel gibt es bei diesem Bot nicht mehr."
    ),
    "There's no {title} game in this channel; start one with `/{game} start`.": (
        "In diesem Kanal läuft keine Partie {title}; starte eine mit `/{game} starten`."
    ),
    "The game here is over; start a new one with `/{game} start`.": (
        "Die Partie hier ist vorbei; starte eine neue mit `/{game} starten`."
    ),
    "Only the host or someone with Manage Messages can abandon the game.": (
        "Nur der Gastgeber oder jemand mit dem Recht „Nachrichten verwalten“ kann die "
        "Partie abbrechen."
    ),
    "Abandoned by {name}.": "Abgebrochen von {name}.",
    "{name} abandoned the {title} game.": "{name} hat die Partie {title} abgebrochen.",
    # Turn clock
    "**{name}**'s time ran out; the computer moved for them ({n} of {limit}).": (
        "**{name}** hatte keine Zeit mehr; der Computer hat für {name} gezogen ({n} von {limit})."
    ),
    "**{name}** missed {limit} turns in a row; a computer plays their seat now.": (
        "**{name}** hat {limit} Züge in Folge verpasst; jetzt spielt ein Computer den Platz."
    ),
    "Time was up, so the bot chose for **{name}**: {move}": (
        "Die Zeit war um, darum hat der Bot für **{name}** gewählt: {move}"
    ),
    "**{name}**: {move}": "**{name}**: {move}",
    "{mentions}, your turn in {title}.": "{mentions}, du bist dran bei {title}.",
    "Turn clock": "Zugzeit",
    "Games can't be started in this channel; the server's admins chose: {channels}.": (
        "In diesem Kanal können keine Spiele gestartet werden; die Admins des Servers haben "
        "diese gewählt: {channels}."
    ),
    "🔔 Turn pings: on": "🔔 Zug-Pings: an",
    "🔕 Turn pings: off": "🔕 Zug-Pings: aus",
    "Only the host can change the table's settings.": (
        "Nur der Gastgeber kann die Einstellungen des Tisches ändern."
    ),
    "{title}: a deal ended": "{title}: eine Runde ist vorbei",
    "The turn ends <t:{at}:R>.": "Der Zug endet <t:{at}:R>.",
    "Just now": "Gerade eben",
    "No turn clock.": "Keine Zugzeit.",
    "{seconds} s per turn; then the computer moves for you.": (
        "{seconds} s pro Zug; danach zieht der Computer für dich."
    ),
    "Live panel": "Live-Panel",
    "Updates itself until <t:{at}:t>; after that, open a fresh one with **{hand}**.": (
        "Aktualisiert sich bis <t:{at}:t>; danach öffne ein neues mit **{hand}**."
    ),
    # Errors
    "Something went wrong on our side; the game is unchanged. Please try again. "
    "(Reference: {ref})": (
        "Bei uns ist etwas schiefgegangen; die Partie ist unverändert. Bitte versuch es "
        "noch einmal. (Referenz: {ref})"
    ),
    "The game store can't be reached right now. Please try again in a moment.": (
        "Der Spielspeicher ist gerade nicht erreichbar. Bitte versuch es gleich noch einmal."
    ),
    "Someone acted first; that click was already handled.": (
        "Jemand war schneller; dieser Klick ist schon erledigt."
    ),
    # Help
    "Games in this channel": "Spiele in diesem Kanal",
    "**{title}** ({players} players): {tagline}\nStart: `/{game} start` · rules: `/{game} rules`": (
        "**{title}** ({players} Spieler): {tagline}\n"
        "Start: `/{game} starten` · Regeln: `/{game} regeln`"
    ),
    "Everyone joins with **Join**; the host can add computer players and presses "
    "**Start**. Your private cards come in messages only you can see.": (
        "Alle steigen mit **Beitreten** ein; der Gastgeber kann Computerspieler hinzufügen "
        "und drückt **Starten**. Deine geheimen Karten kommen in Nachrichten, die nur du "
        "siehst."
    ),
    # Stats
    "No finished games here yet.": "Hier gibt es noch keine beendeten Partien.",
    "All games": "Alle Spiele",
    "**{title}**: {played} played · {wins} won · average place {average}": (
        "**{title}**: {played} gespielt · {wins} gewonnen · Platz im Schnitt {average}"
    ),
    " · rating **{rating}**": " · Wertung **{rating}**",
    "Ratings are cautious estimates of skill: 0 for a newcomer, rising as results show "
    "how well you play; 1000 is a player known to be average.": (
        "Wertungen sind vorsichtige Schätzungen des Könnens: 0 für Neue, sie steigen, je "
        "mehr Ergebnisse zeigen, wie gut du spielst; 1000 ist, wer sicher Durchschnitt ist."
    ),
    "{name}: stats": "{name}: Statistik",
    "{title}: leaderboard": "{title}: Bestenliste",
    "**{place}.** {name}: **{rating}** ({played} played, {wins} won)": (
        "**{place}.** {name}: **{rating}** ({played} gespielt, {wins} gewonnen)"
    ),
    "Stats are kept per server.": "Statistiken werden pro Server geführt.",
    "Leaderboards are kept per server.": "Bestenlisten werden pro Server geführt.",
    "I don't host a game called {game!r}; see `/help`.": (
        "Ein Spiel namens {game!r} habe ich nicht; sieh unter `/hilfe` nach."
    ),
    # Shared by several games
    "**{names}** win!": "**{names}** gewinnen!",
    "**{names}** wins!": "**{names}** gewinnt!",
    "GAME OVER": "PARTIE VORBEI",
    "It's not your turn.": "Du bist nicht am Zug.",
    "Places": "Platzierung",
    "Players": "Spieler",
    "Seconds per turn before the computer moves for you (0: no clock)": (
        "Sekunden pro Zug, bevor der Computer für dich zieht (0: ohne Uhr)"
    ),
    "The game is over.": "Die Partie ist vorbei.",
    "You are not playing in this game.": "Du spielst in dieser Partie nicht mit.",
    "You don't hold {cards}.": "Du hast {cards} nicht auf der Hand.",
    "Your hand: {cards}": "Deine Hand: {cards}",
    "cards": "Karten",
    "nobody": "niemand",
    "score": "Punkte",
    "to play": "spielt",
    "total": "gesamt",
    "{names} and {last}": "{names} und {last}",
    "{names} win": "{names} gewinnen",
    "{names} wins": "{names} gewinnt",
    "{n} card": "{n} Karte",
    "{n} cards": "{n} Karten",
}

NAMES: dict[str, str] = {
    "join": "beitreten",
    "leave": "verlassen",
    "hand": "hand",
    "status": "status",
    "abandon": "abbrechen",
    "rules": "regeln",
    "start": "starten",
    "turn_time": "zugzeit",
    "help": "hilfe",
    "stats": "statistik",
    "player": "spieler",
    "leaderboard": "bestenliste",
    "game": "spiel",
}
"""Slash command, option and choice names: English name → German name (lowercase,
no spaces, 1–32 characters, as Discord requires)."""
