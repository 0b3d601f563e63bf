"""German texts of `/settings`: a server's settings, for members with Manage Server."""

from __future__ import annotations

GERMAN: dict[str, str] = {
    # The commands
    "This server's game settings (Manage Server)": (
        "Die Spieleinstellungen dieses Servers (Server verwalten)"
    ),
    "Show this server's settings": "Die Einstellungen dieses Servers zeigen",
    "The language of the games' public messages": (
        "Die Sprache der öffentlichen Nachrichten der Spiele"
    ),
    "automatic: the server's language, else the starter's": (
        "automatisch: die Sprache des Servers, sonst die des Startenden"
    ),
    "Ping the next player when the turn passes": (
        "Den nächsten Spieler anpingen, wenn er an der Reihe ist"
    ),
    "on or off": "an oder aus",
    "A game's default turn clock": "Die übliche Zugzeit eines Spiels",
    "Seconds per turn (0: no clock); leave out for the game's default": (
        "Sekunden pro Zug (0: keine Uhr); weglassen für die Vorgabe des Spiels"
    ),
    "Let a channel host games": "Einen Kanal für Spiele freigeben",
    "Take a channel off the game channels": "Einen Kanal von den Spielkanälen nehmen",
    "The channel": "Der Kanal",
    "Let every channel host games again": "Wieder jeden Kanal für Spiele freigeben",
    "Put every setting back to its default": "Alle Einstellungen zurücksetzen",
    # Values
    "automatic (the server's language, else the starter's)": (
        "automatisch (die Sprache des Servers, sonst die des Startenden)"
    ),
    "English": "Englisch",
    "German": "Deutsch",
    "on": "an",
    "off": "aus",
    "the game's default": "Vorgabe des Spiels",
    "no clock": "keine Uhr",
    "{n} s": "{n} s",
    "all channels": "alle Kanäle",
    # The answer
    "Server settings": "Servereinstellungen",
    "Current settings.": "Die aktuellen Einstellungen.",
    "Saved.": "Gespeichert.",
    "Language of public messages: **{value}**": "Sprache öffentlicher Nachrichten: **{value}**",
    "Ping the next player: **{value}**": "Den nächsten Spieler anpingen: **{value}**",
    "Game channels: {value}": "Spielkanäle: {value}",
    "Turn clocks:": "Zugzeiten:",
    "· {title}: **{value}**": "· {title}: **{value}**",
    # Refusals
    "Settings are kept per server.": "Einstellungen gelten pro Server.",
    "Only members with the Manage Server permission can use `/settings`.": (
        "Nur Mitglieder mit der Berechtigung „Server verwalten“ können `/settings` benutzen."
    ),
    "`{value}` is not a language setting; choose auto, en or de.": (
        "`{value}` ist keine Spracheinstellung; wähle auto, en oder de."
    ),
    "A turn clock must be between 0 and {high} seconds.": (
        "Eine Zugzeit muss zwischen 0 und {high} Sekunden liegen."
    ),
    "A server can list at most {n} game channels.": (
        "Ein Server kann höchstens {n} Spielkanäle festlegen."
    ),
    "That channel is listed already.": "Dieser Kanal steht schon auf der Liste.",
    "That channel isn't on the list.": "Dieser Kanal steht nicht auf der Liste.",
}

NAMES: dict[str, str] = {
    "settings": "einstellungen",
    "show": "anzeigen",
    "language": "sprache",
    "value": "wert",
    "pings": "anpingen",
    "seconds": "sekunden",
    "channel_add": "kanal_hinzufuegen",
    "channel_remove": "kanal_entfernen",
    "channels_clear": "alle_kanaele",
    "channel": "kanal",
    "reset": "zuruecksetzen",
}
"""Command, option and choice names: English name → German name."""
