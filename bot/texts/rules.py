"""The `/regole` pages: the rules of both variants in the project's own Italian words.

The content follows docs/RULES.md, the one reading of the rules that the engine implements
(the comment above each page names the sections it retells), so what a player reads here is
what the bot enforces. Every body is Telegram HTML limited to <b>, <i> and <code>, short
enough for one message, and every section key is short ASCII because it travels inside
64-byte callback data.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class Section:
    """One page of the rules: `key` goes into callback data, `title` onto its button."""

    key: str
    title: str
    body: str


@dataclass(frozen=True, slots=True)
class Variant:
    """The rules of one game, split into pages so that each fits a message."""

    key: str
    name: str
    intro: str
    sections: tuple[Section, ...]

    def section(self, section_key: str) -> Section | None:
        """The page with this key, or None for an unknown (e.g. outdated) key."""
        for candidate in self.sections:
            if candidate.key == section_key:
                return candidate
        return None


#: How a turn's steps are taken back and when the turn passes, as the bot does it: with the
#: automatic confirmation (on unless a player turns it off in /impostazioni) the turn passes
#: once the dice are used; without it the player checks the play and presses Conferma.
UNDO_AND_CONFIRM = (
    "Finché non hai usato tutti i dadi puoi annullare i passi del turno; poi il turno "
    "passa da solo. Se in /impostazioni spegni la <i>conferma automatica</i>, a mossa "
    "completa premi <b>Conferma</b> (o <b>Annulla</b> per rifarla)."
)

OVERVIEW_TITLE = "Regole"

OVERVIEW = (
    "<b>Regole</b>\n"
    "Con Tavola puoi giocare due giochi diversi sulla stessa tavola da 24 punti:\n\n"
    "• <b>Backgammon classico</b>: le pedine partono distribuite su quattro punti, "
    "le pedine isolate si possono colpire, c'è il cubo del raddoppio e si gioca a match.\n"
    "• <b>Backgammon lungo</b>: tutte le pedine partono dalla testa, nessuno colpisce "
    "e basta una pedina avversaria per chiudere un punto; si gioca a serie, con Oin e Mars.\n\n"
    "Scegli un gioco, poi l'argomento che ti interessa."
)


_CLASSIC_SECTIONS: tuple[Section, ...] = (
    # Retells docs/RULES.md#both-equipment, docs/RULES.md#both-numbering,
    # docs/RULES.md#classic-setup, docs/RULES.md#classic-opening-roll,
    # docs/RULES.md#both-dice-and-turns.
    Section(
        key="prep",
        title="Preparazione",
        body=(
            "<b>Preparazione</b>\n"
            "Si gioca in due, su una tavola di 24 punti, con 15 pedine per giocatore "
            "e due dadi.\n"
            "Ciascuno numera i punti dal proprio lato: i punti da 1 a 6 sono la tua casa, "
            "muovi sempre dai numeri alti verso i bassi e alla fine fai uscire le pedine "
            "oltre il punto 1.\n\n"
            "Schieramento di partenza, contato dal tuo lato:\n"
            "• 2 pedine sul punto 24;\n"
            "• 5 sul 13;\n"
            "• 3 sull'8;\n"
            "• 5 sul 6.\n\n"
            "Per decidere chi comincia, ognuno tira un dado solo; se i numeri sono uguali "
            "si tira di nuovo. Chi ottiene il numero più alto apre la partita e come prima "
            "mossa gioca proprio quei due numeri.\n"
            "I dadi li tira il bot, in modo equo: tu decidi solo come muovere."
        ),
    ),
    # Retells docs/RULES.md#both-using-the-whole-roll,
    # docs/RULES.md#classic-hitting-and-the-bar, docs/RULES.md#both-dice-and-turns.
    Section(
        key="movimento",
        title="Movimento",
        body=(
            "<b>Movimento</b>\n"
            "Ogni dado vale un passo separato. Con 6-1 puoi spostare una pedina di 6 e "
            "un'altra di 1, oppure la stessa pedina di 7, a patto che il punto dove si "
            "ferma dopo il primo dado sia aperto.\n"
            "Un doppio si gioca quattro volte: 3-3 ti dà quattro passi da 3.\n"
            "Un punto con due o più pedine avversarie è <b>chiuso</b>: lì non puoi fermarti.\n\n"
            "Il tiro va sfruttato al massimo:\n"
            "• se puoi giocare entrambi i dadi (tutti e quattro i passi con un doppio), "
            "devi farlo;\n"
            "• se riesci a giocarne uno solo, giochi quello;\n"
            "• se ognuno è giocabile da solo ma non tutti e due, giochi il più alto;\n"
            "• con un doppio giochi quanti più passi puoi.\n"
            "Senza alcuna mossa legale il turno passa all'avversario.\n" + UNDO_AND_CONFIRM
        ),
    ),
    # Retells docs/RULES.md#classic-hitting-and-the-bar.
    Section(
        key="colpire",
        title="Colpire e barra",
        body=(
            "<b>Colpire e barra</b>\n"
            "Una pedina rimasta da sola su un punto è un <i>blot</i>. Se una tua pedina "
            "si ferma su un blot avversario lo colpisci, e la pedina colpita finisce sulla "
            "<b>barra</b>, al centro della tavola. Si può colpire anche a metà strada, "
            "quando una pedina usa due dadi e la prima sosta cade su un blot.\n\n"
            "Con pedine sulla barra devi farle rientrare tutte prima di muovere "
            "qualsiasi altra pedina. Si rientra nella casa avversaria: il dado n ti porta "
            "sul tuo punto 25−n (un 1 sul 24, un 6 sul 19). Un punto chiuso non accoglie "
            "il rientro, quindi quel dado non serve per entrare.\n"
            "Appena l'ultima pedina è rientrata, il resto del tiro si gioca normalmente, "
            "con la pedina che vuoi. Se una pedina resta sulla barra perché nessun dado "
            "la fa entrare, il resto del tiro è perso."
        ),
    ),
    # Retells docs/RULES.md#both-bearing-off.
    Section(
        key="uscita",
        title="Uscita",
        body=(
            "<b>Uscita</b>\n"
            "Le pedine cominciano a uscire solo quando hai tutte le 15 in casa, sui punti "
            "da 1 a 6. Una pedina sulla barra o fuori casa ferma l'uscita; se ti colpiscono "
            "mentre stai uscendo, quella pedina deve prima tornare a casa.\n"
            "• Il dado n fa uscire una pedina dal punto n.\n"
            "• Se il punto n è vuoto ma hai pedine su punti più alti, devi muoverne una "
            "dentro la casa.\n"
            "• Solo se non hai pedine né sul punto n né più in alto, il dado fa uscire "
            "la pedina dal punto occupato più alto.\n"
            "Uscire non è mai un obbligo se c'è un'altra mossa legale, ma il tiro va "
            "comunque sfruttato al massimo.\n"
            "La partita è di chi toglie per primo dalla tavola tutte le sue pedine."
        ),
    ),
    # Retells docs/RULES.md#classic-results, docs/RULES.md#classic-resigning.
    Section(
        key="punteggio",
        title="Punteggio",
        body=(
            "<b>Punteggio</b>\n"
            "Quanto vale la vittoria dipende da quanto è rimasto indietro chi perde:\n"
            "• <b>vittoria semplice</b>, 1 punto: lo sconfitto ha già portato fuori almeno "
            "una pedina;\n"
            "• <b>gammon</b>, 2 punti: lo sconfitto non ha portato fuori nessuna pedina;\n"
            "• <b>backgammon</b>, 3 punti: gammon, e in più allo sconfitto resta almeno "
            "una pedina sulla barra o dentro la casa di chi ha vinto.\n"
            "Il risultato si moltiplica per il valore del cubo: un backgammon con il cubo "
            "a 2 vale 6 punti. Partita libera con regola Jacoby: senza raddoppi valgono 1 "
            "punto.\n\n"
            "<b>Abbandonare</b>: in qualsiasi momento, anche fuori turno, offri "
            "all'avversario una vittoria semplice, un gammon o un backgammon, sempre per "
            "il cubo. Se accetta, la partita finisce così; se rifiuta, si continua e "
            "l'offerta decade. Il gammon si offre solo finché non hai portato fuori "
            "pedine, il backgammon solo finché una tua pedina è sulla barra o nella casa "
            "avversaria, o può ancora esservi rimandata."
        ),
    ),
    # Retells docs/RULES.md#classic-cube, docs/RULES.md#classic-matches-and-crawford.
    Section(
        key="cubo",
        title="Cubo e partita libera",
        body=(
            "<b>Cubo e partita libera</b>\n"
            "Il cubo del raddoppio parte da 1, al centro, senza proprietario. All'inizio "
            "del tuo turno, prima di tirare i dadi, puoi raddoppiare se il cubo è al centro "
            "oppure è tuo. L'avversario sceglie:\n"
            "• <b>accetta</b>: la posta raddoppia e il cubo diventa suo, così solo lui "
            "potrà proporre il raddoppio successivo;\n"
            "• <b>rinuncia</b>: perde subito quanto valeva la partita prima del raddoppio.\n"
            "Il cubo sale a 2, 4, 8, 16, 32, 64 e oltre 64 non si raddoppia. Nelle "
            "impostazioni puoi anche giocare <i>senza cubo</i>.\n\n"
            "<b>Partita libera</b>: una partita col cubo fino a 64, senza Crawford; con la "
            "regola Jacoby (attiva se non la togli) gammon e backgammon contano solo dopo "
            "un raddoppio.\n\n"
            "<b>Match</b>: si gioca fino a N punti, contando anche gammon e backgammon. "
            "La prima volta che un giocatore arriva a N−1 punti, la partita seguente è "
            "la partita <b>Crawford</b>, in cui nessuno può raddoppiare; dalla partita "
            "dopo il raddoppio torna libero. Un match a 1 punto si gioca senza cubo."
        ),
    ),
    # Retells docs/RULES.md#both-notation, docs/RULES.md#classic-gnu-backgammon-ids.
    Section(
        key="notazione",
        title="Notazione",
        body=(
            "<b>Notazione</b>\n"
            "Una mossa si scrive dal lato di chi muove, nella forma <code>da/a</code>, "
            "con uno spazio tra un passo e l'altro:\n"
            "• <code>13/7</code>: una pedina dal 13 al 7;\n"
            "• <code>8/5*</code>: l'asterisco indica che hai colpito;\n"
            "• <code>bar/22</code>: rientro dalla barra sul 22;\n"
            "• <code>6/off</code>: pedina portata fuori dal 6;\n"
            "• <code>13/7/2</code> oppure <code>13/2</code>: una pedina che usa due dadi;\n"
            "• <code>8/5(2)</code>: due pedine fanno lo stesso passo.\n"
            "Al posto dei pulsanti puoi scrivere la mossa con /mossa, per esempio "
            "<code>/mossa 13/7 8/7</code>.\n"
            "Con /posizione ottieni il Position ID e il Match ID di GNU Backgammon, "
            "utili per studiare la posizione con altri programmi."
        ),
    ),
)


_LONG_SECTIONS: tuple[Section, ...] = (
    # Retells docs/RULES.md#both-equipment, docs/RULES.md#long-setup,
    # docs/RULES.md#long-who-starts.
    Section(
        key="prep",
        title="Preparazione",
        body=(
            "<b>Preparazione</b>\n"
            "Due giocatori, 24 punti, 15 pedine ciascuno e due dadi. All'inizio le tue 15 "
            "pedine stanno tutte sul tuo punto 24, la <b>testa</b>. Le due teste sono in "
            "angoli opposti della tavola: il tuo punto 24 è il 12 dell'avversario.\n"
            "Entrambi girate in senso antiorario. Ognuno numera i punti dal proprio lato: "
            "la tua casa sono i punti da 1 a 6, mentre la casa avversaria corrisponde ai "
            "tuoi punti da 13 a 18.\n\n"
            "Nella prima partita di una serie ognuno tira un dado; se i numeri sono uguali "
            "si tira di nuovo. Chi fa il numero più alto prende il <b>Bianco</b> e comincia. "
            "Quel tiro serve solo a scegliere chi parte: il Bianco poi tira due dadi e "
            "gioca quelli."
        ),
    ),
    # Retells docs/RULES.md#long-moving, docs/RULES.md#both-using-the-whole-roll,
    # docs/RULES.md#both-dice-and-turns.
    Section(
        key="movimento",
        title="Movimento",
        body=(
            "<b>Movimento</b>\n"
            "Nel lungo non si colpisce e non esiste la barra: basta una sola pedina "
            "avversaria per chiudere un punto. Sui tuoi punti invece puoi impilare quante "
            "pedine vuoi.\n"
            "Ogni dado vale un passo separato, e una pedina può usarli entrambi se il punto "
            "intermedio è aperto. Un doppio vale quattro passi.\n"
            "Come nel classico il tiro va sfruttato al massimo: entrambi i dadi quando si "
            "può; se ne puoi giocare uno solo, quello; se ognuno va bene da solo ma non "
            "insieme, il più alto; con un doppio, quanti più passi puoi. Senza mosse legali "
            "il turno passa all'avversario.\n"
            "Valgono poi la regola della testa e quella del blocco, spiegate nelle loro "
            "pagine.\n" + UNDO_AND_CONFIRM
        ),
    ),
    # Retells docs/RULES.md#long-head-rule.
    Section(
        key="testa",
        title="Regola della testa",
        body=(
            "<b>Regola della testa</b>\n"
            "In ogni turno dalla testa può partire <b>una sola pedina</b>, anche quando "
            "esce un doppio.\n\n"
            "Eccezioni, valide solo nel tuo primo turno della partita:\n"
            "• con <b>3-3</b>, <b>4-4</b> o <b>6-6</b> possono lasciare la testa due pedine;\n"
            "• se il primo tiro del Bianco è stato <b>5-5</b> e il primo tiro del Nero è "
            "<b>4-4</b>, il Nero sposta una sola pedina dalla testa, di un solo passo da 4, "
            "e il suo turno finisce lì.\n\n"
            "Il perché: con quei doppi una pedina sola si fermerebbe presto contro le "
            "pedine avversarie e gran parte del tiro andrebbe sprecata."
        ),
    ),
    # Retells docs/RULES.md#long-block-rule.
    Section(
        key="blocco",
        title="Regola del blocco",
        body=(
            "<b>Regola del blocco</b>\n"
            "Non puoi occupare <b>6 punti consecutivi</b> (sei punti di fila) con le tue "
            "pedine, a meno che almeno una pedina avversaria abbia già superato quel blocco "
            "lungo il suo cammino. Dove si trovi quella pedina, in casa o fuori, non conta.\n"
            "«Consecutivi» va letto lungo il percorso dell'avversario, che nella tua "
            "numerazione va 12, 11, …, 1, 24, 23, …, 13: conta quindi anche un blocco a "
            "cavallo tra il tuo punto 1 e il tuo 24.\n"
            "Un passo che crea un blocco vietato è illegale in qualsiasi momento del "
            "turno: non basta sciogliere il blocco con il passo successivo.\n"
            "Cinque punti di fila, invece, sono sempre permessi."
        ),
    ),
    # Retells docs/RULES.md#long-bearing-off, docs/RULES.md#both-bearing-off.
    Section(
        key="uscita",
        title="Uscita",
        body=(
            "<b>Uscita</b>\n"
            "Funziona come nel classico: le pedine cominciano a uscire solo quando hai "
            "tutte le 15 in casa, sui punti da 1 a 6.\n"
            "• Il dado n fa uscire una pedina dal punto n.\n"
            "• Se il punto n è vuoto ma hai pedine più in alto, devi muoverne una dentro "
            "la casa.\n"
            "• Solo se non hai pedine né sul punto n né più in alto, il dado fa uscire la "
            "pedina dal punto occupato più alto.\n"
            "Uscire non è mai un obbligo se c'è un'altra mossa legale, ma devi comunque "
            "usare entrambi i dadi quando è possibile.\n"
            "La partita è di chi toglie per primo dalla tavola tutte le sue pedine."
        ),
    ),
    # Retells docs/RULES.md#long-results, docs/RULES.md#long-resigning.
    Section(
        key="punteggio",
        title="Punteggio",
        body=(
            "<b>Punteggio</b>\n"
            "Nel lungo non c'è il cubo. Chi porta fuori per primo tutte le pedine vince:\n"
            "• <b>Oin</b>, 1 punto: chi perde ha portato fuori almeno una pedina;\n"
            "• <b>Mars</b>, 2 punti: chi perde non è riuscito a far uscire neanche una pedina.\n\n"
            "Quando crei la partita scegli quanto può valere:\n"
            "• <i>Oin</i>: ogni risultato conta 1 punto, anche un Mars;\n"
            "• <i>Mars</i>: il Mars conta 2 punti, l'Oin 1.\n\n"
            "<b>Abbandonare</b>: l'avversario vince un Oin o un Mars secondo la posizione "
            "nel momento in cui premi il pulsante e secondo l'impostazione della partita."
        ),
    ),
    # Retells docs/RULES.md#long-last-roll.
    Section(
        key="ultimo",
        title="Ultimo lancio",
        body=(
            "<b>Ultimo lancio</b>\n"
            "Regola facoltativa, da attivare quando crei la partita. Di norma nel lungo "
            "non si pareggia.\n"
            "Con l'<i>ultimo lancio</i> attivo, quando chi ha cominciato la partita porta "
            "fuori la sua ultima pedina, l'altro giocatore ha diritto a un tiro in più. Se "
            "con quel tiro riesce a portare fuori tutte le pedine che gli restano, la "
            "partita finisce in <b>patta</b>; altrimenti vince chi ha finito per primo.\n"
            "Se a finire per primo è chi ha giocato per secondo, la vittoria è sua subito."
        ),
    ),
    # Retells docs/RULES.md#long-series, docs/RULES.md#long-who-starts.
    Section(
        key="serie",
        title="Serie",
        body=(
            "<b>Serie</b>\n"
            "Una serie si gioca fino a N punti: le partite si susseguono finché qualcuno "
            "raggiunge la meta.\n"
            "La prima partita la apre chi vince il tiro di un dado (vedi Preparazione). "
            "Per le successive decide l'impostazione «1ª mossa nella serie»:\n"
            "• <b>Al perdente</b>: comincia chi ha perso la partita precedente;\n"
            "• <b>A turno</b>: si comincia una volta per uno.\n"
            "Chi comincia una partita gioca sempre con il Bianco."
        ),
    ),
    # Retells docs/RULES.md#both-notation.
    Section(
        key="notazione",
        title="Notazione",
        body=(
            "<b>Notazione</b>\n"
            "Si scrive come nel classico, dal lato di chi muove: <code>da/a</code>, con "
            "uno spazio tra un passo e l'altro.\n"
            "• <code>24/18</code>: una pedina dalla testa al 18;\n"
            "• <code>24/15</code> oppure <code>24/18/15</code>: la stessa pedina con due "
            "dadi;\n"
            "• <code>19/16(2)</code>: due pedine fanno lo stesso passo;\n"
            "• <code>3/off</code>: pedina portata fuori dal 3.\n"
            "Nel lungo non si colpisce e non c'è barra, quindi niente <code>*</code> né "
            "<code>bar</code>.\n"
            "Al posto dei pulsanti puoi scrivere la mossa con /mossa, per esempio "
            "<code>/mossa 24/15</code>."
        ),
    ),
)


VARIANTS: dict[str, Variant] = {
    "classico": Variant(
        key="classico",
        name="Backgammon classico",
        intro=(
            "<b>Backgammon classico</b>\n"
            "Il gioco da torneo: si colpisce, si rientra dalla barra, si raddoppia con il "
            "cubo. Scegli un argomento."
        ),
        sections=_CLASSIC_SECTIONS,
    ),
    "lungo": Variant(
        key="lungo",
        name="Backgammon lungo",
        intro=(
            "<b>Backgammon lungo</b>\n"
            "Tutte le pedine partono dalla testa e nessuno colpisce: contano la regola "
            "della testa e quella del blocco. Scegli un argomento."
        ),
        sections=_LONG_SECTIONS,
    ),
}


def find_section(variant_key: str, section_key: str) -> Section | None:
    """The page for a callback's (variant, section) pair, or None if either is unknown.

    Returning None instead of raising lets a handler answer an outdated button politely.
    """
    variant = VARIANTS.get(variant_key)
    if variant is None:
        return None
    return variant.section(section_key)
