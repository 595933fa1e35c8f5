#!/usr/bin/env python3
"""Generate BundlePress's sample Firestore exports (a small, made-up news site).

Usage:
    python3 scripts/make_sample_exports.py [OUTDIR]
    python3 scripts/make_sample_exports.py --check [OUTDIR]

OUTDIR defaults to `exports/` at the repository root. The generated files ARE
COMMITTED: the example `pipeline.yml` builds bundles from them and the
end-to-end tests read them, so do not edit them by hand. Change this script
and run it again instead, then review the diff. Output is deterministic: a
fixed seed, no clock, no environment, no hash-ordered iteration. Two runs
give byte-identical files, and the script needs only the standard library.
With `--check` the script writes nothing and only validates an existing
OUTDIR.

Format: Firestore REST `Document` JSON, one document per line (NDJSON), the
same shape as `canonical/rest-documents.ndjson`:
`{"name","fields","createTime","updateTime"}`. `name` is a full resource
name in `projects/bundlepress-demo/databases/(default)/documents/...`.
`integerValue` is a decimal string. `doubleValue` is a JSON number or "NaN".
Timestamps are RFC 3339 UTC with `Z` and 0, 3, 6 or 9 fraction digits, in
their shortest exact form. `bytesValue` is standard padded base64, a
`referenceValue` is a full name, and empty arrays and maps are written as
`arrayValue:{}` / `mapValue:{}`. The JSON is compact, raw UTF-8
(ensure_ascii=False), and each file is sorted by document name in byte
order. Every time (createTime, updateTime and timestamp fields) lies in
[2025-01-01T00:00:00Z, 2026-11-01T00:00:00Z), and createTime <= updateTime.

Files:
    authors.ndjson      authors/{slug}: 24 authors
    stories.ndjson      stories/{slug}: 160 stories (136 published)
    comments.ndjson     stories/{slug}/comments/c001..: 350 comments,
                        0-6 per published story, none on drafts
    site/config.ndjson  site/settings and site/navigation

Fields:
    authors   name, bio, email, joinedAt, active, articleCount (= number of
              that author's published stories), avatarDigest (8-16 bytes),
              social {twitter?, mastodon?}, home (geopoint), topics [string],
              rating (double)
    stories   title, slug (= document id), summary, category (world | tech |
              science | culture | sport), published, publishedAt (also set on
              drafts), updatedAt, author (ref -> authors), score, rating,
              tags [1-4 strings], wordCount, featured, location (geopoint,
              about half; the others lack the field), heroImageDigest (bytes),
              stats {views, shares, readRatio}, editorNote (null or string),
              language (en | fr | de | ja), sometimes sponsorId
    comments  author (display name), body, createdAt, likes, approved,
              story (ref -> parent story), flags [string]
    site      settings: title, tagline, defaultLocale, locales, maintenance,
              launchedAt, palette {.., dark {..}}, heroStory (ref -> story),
              storiesPerPage. navigation: sections [{label, category, order,
              labels {en, fr, de, ja}}]

Planted edge cases (queries and tests may rely on them):
    * non-ASCII names, titles and bodies (Zoë, Ñúñez, Ødegård, 王晓明, fr, de,
      ja), an emoji in one author's bio and in one story summary, one summary
      with a double quote and a backslash, comment bodies with a newline;
    * `score` is an integer except in SCORE_AS_DOUBLE stories, where it is an
      integral double. One of them (42.0) ties with an integer 42, and
      integer scores tie too;
    * `rating` doubles include integral values (3.0, 4.0) and one NaN;
    * sponsorId 9007199254740993 (2^53+1) on one story and 9007199254740992
      (2^53) on another, which a JS client cannot tell apart;
    * two stories with `tags: []`, one with `stats: {}`, about half without
      `location`, an author with an empty `social: {}`, and an author with
      no stories (articleCount 0);
    * no story slug is a prefix of another followed by '-', so for comment
      names byte order and Firestore's segment-wise key order agree.
"""

import base64
import hashlib
import json
import math
import random
import re
import sys
import unicodedata
from datetime import datetime, timezone
from pathlib import Path

SEED = 20250101
PROJECT = "bundlepress-demo"
DATABASE = "(default)"
ROOT = f"projects/{PROJECT}/databases/{DATABASE}/documents/"

NS = 1_000_000_000
MINUTE = 60 * NS
HOUR = 60 * MINUTE
DAY = 24 * HOUR


def epoch_ns(y, mo, d, h=0, mi=0, s=0):
    return int(datetime(y, mo, d, h, mi, s, tzinfo=timezone.utc).timestamp()) * NS


T_MIN = epoch_ns(2025, 1, 1)           # inclusive
T_MAX = epoch_ns(2026, 11, 1)          # exclusive
STORY_FIRST = epoch_ns(2025, 2, 1)
STORY_LAST = epoch_ns(2026, 10, 15)

N_STORIES = 160
N_PUBLISHED = 136                      # 85 %
N_FEATURED = 16                        # about 10 %, all published
N_COMMENTS = 350
MAX_COMMENTS_PER_STORY = 6
SCORE_AS_DOUBLE = 5
BIG_INTS = (9007199254740993, 9007199254740992)

CATEGORIES = ("world", "tech", "science", "culture", "sport")

# ---------------------------------------------------------------------------
# Value encoders (Firestore REST / proto3 JSON)
# ---------------------------------------------------------------------------


def s(v):
    return {"stringValue": v}


def i(v):
    return {"integerValue": str(int(v))}


def d(v):
    v = float(v)
    if math.isnan(v):
        return {"doubleValue": "NaN"}
    if math.isinf(v):
        return {"doubleValue": "Infinity" if v > 0 else "-Infinity"}
    return {"doubleValue": v}


def b(v):
    return {"booleanValue": bool(v)}


def null():
    return {"nullValue": None}


def ts(ns):
    return {"timestampValue": fmt_time(ns)}


def by(raw):
    return {"bytesValue": base64.b64encode(raw).decode("ascii")}


def ref(path):
    return {"referenceValue": ROOT + path}


def geo(lat, lng):
    return {"geoPointValue": {"latitude": float(lat), "longitude": float(lng)}}


def arr(values):
    return {"arrayValue": {"values": list(values)}} if values else {"arrayValue": {}}


def mp(fields):
    return {"mapValue": {"fields": dict(fields)}} if fields else {"mapValue": {}}


def fmt_time(ns):
    """RFC 3339 UTC, `Z`, shortest exact form with 0, 3, 6 or 9 fraction digits."""
    secs, nanos = divmod(ns, NS)
    base = datetime.fromtimestamp(secs, timezone.utc).strftime("%Y-%m-%dT%H:%M:%S")
    if nanos == 0:
        frac = ""
    elif nanos % 1_000_000 == 0:
        frac = ".%03d" % (nanos // 1_000_000)
    elif nanos % 1_000 == 0:
        frac = ".%06d" % (nanos // 1_000)
    else:
        frac = ".%09d" % nanos
    return base + frac + "Z"


def document(path, fields, create_ns, update_ns):
    assert create_ns <= update_ns, path
    return {
        "name": ROOT + path,
        "fields": fields,
        "createTime": fmt_time(create_ns),
        "updateTime": fmt_time(update_ns),
    }


# ---------------------------------------------------------------------------
# Random helpers (only Random.random/randrange/choice/shuffle/sample/choices,
# whose output is stable across Python 3 versions for a fixed seed)
# ---------------------------------------------------------------------------


class Gen:
    def __init__(self, seed):
        self.rng = random.Random(seed)

    def precision(self, ns):
        """Truncate to 0, 3, 6 or 9 fraction digits (mixed on purpose)."""
        digits = self.rng.choices((0, 3, 6, 9), weights=(2, 3, 3, 2))[0]
        unit = 10 ** (9 - digits)
        return ns - ns % unit

    def time(self, lo, hi):
        """A random time in [lo, hi), clamped into [T_MIN, T_MAX)."""
        lo = max(lo, T_MIN)
        hi = min(hi, T_MAX - NS)
        if hi <= lo:
            return self.precision(hi)
        return max(lo - lo % NS, self.precision(self.rng.randrange(lo, hi)))

    def later(self, base, lo, hi):
        """A time at least `base`, `lo`..`hi` after it, never past the end."""
        t = self.time(base + lo, base + hi)
        return max(t, base)


def slugify(text):
    folded = unicodedata.normalize("NFKD", text)
    folded = "".join(c for c in folded if not unicodedata.combining(c))
    folded = folded.lower().replace("'", "").replace("\u2019", "")
    slug = re.sub(r"[^a-z0-9]+", "-", folded).strip("-")
    if len(slug) > 60:
        slug = slug[:60].rsplit("-", 1)[0]
    return slug


def digest(label, n):
    return hashlib.sha256(label.encode("utf-8")).digest()[:n]


# ---------------------------------------------------------------------------
# Source material
# ---------------------------------------------------------------------------

# slug, name, beats, languages, home (lat, lng), social (twitter, mastodon), bio
AUTHORS = [
    ("zoe-kravitz-ng", "Zoë Kravitz-Ng", ("tech", "science"), ("en",), (43.6532, -79.3832),
     ("@zoekng", "@zoe@mastodon.social"),
     "Covers developer tools, open source and the occasional rocket launch."),
    ("jose-nunez", "José Ñúñez", ("sport", "world"), ("en",), (40.4168, -3.7038),
     ("@josenunez", None),
     "Former club goalkeeper; now writes about football, cycling and Spanish politics."),
    ("soren-odegard", "Søren Ødegård", ("science",), ("en",), (59.9139, 10.7522),
     (None, "@soren@fosstodon.org"),
     "Glaciologist turned science reporter. Based in Oslo, often on Svalbard."),
    ("wang-xiaoming", "王晓明", ("tech", "world"), ("en",), (31.2304, 121.4737),
     (None, None),
     "Shanghai correspondent covering chips, supply chains and the cities that build them."),
    ("amara-okafor", "Amara Okafor", ("world", "culture"), ("en",), (6.5244, 3.3792),
     ("@amaraokafor", "@amara@journa.host"),
     "West Africa correspondent. Elections, music and everything in between."),
    ("priya-raman", "Priya Raman", ("science", "tech"), ("en",), (12.9716, 77.5946),
     ("@priyaraman", None),
     "Health and biology desk. Previously a lab technician in Bengaluru."),
    ("lena-hoffmann", "Lena Hoffmann", ("culture", "world"), ("de", "en"), (52.52, 13.405),
     ("@lenahoffmann", "@lena@chaos.social"),
     "Kulturredakteurin in Berlin: clubs, theatre and the politics of public space."),
    ("camille-durand", "Camille Durand", ("culture", "world", "science"), ("fr", "en"),
     (48.8566, 2.3522), ("@camilledurand", None),
     "Journaliste à Paris. Cinéma, festivals et vie des quartiers."),
    ("kenji-watanabe", "Kenji Watanabe", ("tech", "science", "world"), ("ja", "en"),
     (35.6762, 139.6503), ("@kenjiw", "@kenji@mstdn.jp"),
     "Tokyo bureau. Robotics, space agencies and typhoon season."),
    ("marcus-bell", "Marcus Bell", ("sport",), ("en",), (53.4808, -2.2426),
     ("@marcusbell", None),
     "Chief sports writer. Thirty seasons of Saturday afternoons."),
    ("elena-petrova", "Elena Petrova", ("world",), ("en",), (42.6977, 23.3219),
     (None, "@elena@mastodon.online"),
     "Covered the Balkans and the Black Sea for a decade."),
    ("sam-oconnor", "Sam O'Connor", ("sport", "culture"), ("en",), (53.3498, -6.2603),
     ("@samoc", None),
     "Rugby, hurling and the odd book review from Dublin."),
    ("fatima-haddad", "Fatima Haddad", ("world",), ("en",), (33.8938, 35.5018),
     ("@fatimahaddad", "@fatima@journa.host"),
     "Middle East correspondent based in Beirut."),
    ("noah-schmidt", "Noah Schmidt", ("tech",), ("de", "en"), (47.3769, 8.5417),
     ("@noahschmidt", None),
     "Zürich-based tech reporter: fintech, privacy and the Swiss rail timetable."),
    ("isabela-costa", "Isabela Costa", ("culture",), ("en",), (-23.5505, -46.6333),
     ("@isabelacosta", "@isa@mastodon.social"),
     "Music and film from São Paulo."),
    ("tom-whitaker", "Tom Whitaker", ("science",), ("en",), (55.9533, -3.1883),
     ("@tomwhitaker", None),
     "Space and physics desk. Rocket nerd 🚀, amateur astronomer, terrible gardener."),
    ("aiko-tanaka", "Aiko Tanaka", ("culture", "sport"), ("ja", "en"), (34.6937, 135.5023),
     (None, "@aiko@mstdn.jp"),
     "Osaka-based writer on manga, food and high-school baseball."),
    ("david-levi", "David Levi", ("tech",), ("en",), (32.0853, 34.7818),
     ("@davidlevi", "@dlevi@infosec.exchange"),
     "Security and startups."),
    ("grace-mwangi", "Grace Mwangi", ("science", "world"), ("en",), (-1.2921, 36.8219),
     ("@gracemwangi", None),
     "Climate and agriculture reporter in Nairobi."),
    ("oliver-brandt", "Oliver Brandt", ("sport",), ("de", "en"), (53.5511, 9.9937),
     (None, None),
     "Hamburg sports desk: football, sailing and the marathon."),
    ("maya-goldberg", "Maya Goldberg", ("culture",), ("en",), (40.7128, -74.006),
     ("@mayagoldberg", "@maya@mastodon.art"),
     "Arts critic. Galleries by day, jazz clubs by night."),
    ("lucas-moreau", "Lucas Moreau", ("sport", "culture"), ("fr", "en"), (45.764, 4.8357),
     ("@lucasmoreau", None),
     "Lyon. Football, cyclisme et cinéma de quartier."),
    ("hannah-kim", "Hannah Kim", ("tech", "culture"), ("en",), (37.5665, 126.978),
     ("@hannahkim", "@hannah@hachyderm.io"),
     "Seoul-based reporter on games, gadgets and K-culture."),
    ("rafael-silva", "Rafael Silva", ("world",), ("en",), (38.7223, -9.1393),
     (None, None),
     "Lisbon. Joined recently; first pieces coming soon."),
]
INACTIVE_AUTHORS = ("elena-petrova", "rafael-silva")
AUTHORS_WITHOUT_STORIES = ("rafael-silva",)
INTEGRAL_AUTHOR_RATING = {"marcus-bell": 4.0}

TAGS_BY_CATEGORY = {
    "world": ("elections", "economy", "climate", "europe", "asia", "africa", "americas"),
    "tech": ("ai", "open-source", "security", "energy", "startups", "hardware"),
    "science": ("space", "climate", "health", "biology", "physics", "energy"),
    "culture": ("film", "music", "books", "art", "food"),
    "sport": ("football", "cycling", "tennis", "rugby", "athletics"),
}
GENERAL_TAGS = ("analysis", "explainer", "interview", "opinion", "data", "breaking")
TAG_VOCABULARY = tuple(sorted({t for ts_ in TAGS_BY_CATEGORY.values() for t in ts_}
                              | set(GENERAL_TAGS)))

TITLE_PARTS = {
    "world": (
        ("Coastal cities", "Election monitors", "Aid agencies", "Border towns",
         "Finance ministers", "Island nations", "Farmers' unions", "City mayors",
         "Regional leaders", "Refugee charities", "Port workers", "Water authorities"),
        ("brace for", "push back on", "negotiate over", "warn of", "rally behind",
         "count the cost of", "seek answers on", "prepare for"),
        ("record floods", "new trade rules", "a disputed census", "rising food prices",
         "the grain corridor deal", "a snap election", "drought rationing",
         "a fragile ceasefire", "the pension reform", "a rail strike"),
    ),
    "tech": (
        ("Open-source maintainers", "Chipmakers", "Browser vendors", "Berlin startups",
         "Cloud providers", "Phone makers", "Robotics firms", "Database vendors",
         "Game studios", "Satellite operators"),
        ("ship", "rethink", "bet big on", "delay", "open-source", "cut prices on",
         "quietly drop", "race to build"),
        ("offline-first sync", "RISC-V laptops", "passkey logins", "on-device translation",
         "solid-state batteries", "repairable phones", "edge caching",
         "low-orbit broadband", "data bundles", "energy-aware scheduling"),
    ),
    "science": (
        ("Astronomers", "Marine biologists", "Climate modellers", "Geneticists",
         "Physicists", "Volcanologists", "Ecologists", "Neuroscientists", "Chemists",
         "Glaciologists"),
        ("map", "discover", "measure", "sequence", "revisit", "track", "simulate",
         "question"),
        ("a hidden ocean on Europa", "ancient river deltas", "coral heat tolerance",
         "the fastest-spinning star", "Arctic methane leaks", "a new moth species",
         "deep-sea microbes", "sleep and memory", "plastic-eating enzymes",
         "Ångström-scale ripples in graphene"),
    ),
    "culture": (
        ("Indie publishers", "Museum curators", "Street artists", "Jazz festivals",
         "Film critics", "Poets", "Choreographers", "Architects", "Novelists",
         "Independent cinemas"),
        ("celebrate", "reinvent", "rediscover", "fight for", "turn to", "reimagine",
         "revive", "embrace"),
        ("forgotten silent films", "the analogue photo revival", "community radio",
         "brutalist housing", "graphic novels", "folk music archives",
         "São Paulo's café culture", "tiny theatres", "translated fiction",
         "Malmö's pop-up libraries"),
    ),
    "sport": (
        ("Underdogs", "Marathon organisers", "The title favourites", "Cycling teams",
         "Veteran goalkeepers", "Women's rugby sides", "Chess prodigies", "Sailing crews",
         "Tennis qualifiers", "Climbing federations"),
        ("stun", "prepare for", "dominate", "rewrite", "chase", "struggle with",
         "overturn", "embrace"),
        ("the derby", "a heatwave race day", "the league table", "extra time",
         "the mountain stage", "a world record", "a rain-soaked final",
         "the transfer window", "the new offside rule", "altitude training"),
    ),
}

SUMMARY_SENTENCES = {
    "world": (
        "Officials say the next two weeks will be decisive.",
        "Residents describe a mix of anger and exhaustion.",
        "The numbers behind the headlines, district by district.",
        "Negotiators met late into the night without a deal.",
        "Our correspondents report from Zürich, Kraków and Malmö.",
        "Critics argue the plan shifts costs onto the poorest households.",
        "A timeline of what happened, and what comes next.",
    ),
    "tech": (
        "Early benchmarks look promising, but the fine print matters.",
        "Developers we spoke to are cautiously optimistic.",
        "The change lands in the next release, due in spring.",
        "Privacy advocates have raised concerns about telemetry.",
        "Prices start at €299 in Europe and ¥45,000 in Japan.",
        "It is the company's third attempt at the market.",
        "We tested it for a month; here is what broke.",
    ),
    "science": (
        "The findings were published this week in Nature.",
        "The team spent four winters collecting samples.",
        "Other researchers urge caution until the results are replicated.",
        "Satellite data reveal a trend that surprised even the authors.",
        "The study measured temperatures down to −40 °C.",
        "A small grant and a lot of patience made it possible.",
        "What it means for the next decade of research.",
    ),
    "culture": (
        "A new generation is discovering it on its own terms.",
        "Tickets sold out within an hour of going on sale.",
        "The curators behind the show explain their choices.",
        "From Montréal to Göteborg, the scene is growing.",
        "Funding cuts loom over an otherwise joyful season.",
        "We asked five artists what changed since the pandemic.",
        "A quiet revolution, one weekend at a time.",
    ),
    "sport": (
        "The coach called it the best performance of the season.",
        "Fans waited in the rain for three hours to see the team.",
        "A late goal changed everything.",
        "The data show a clear shift in tactics since January.",
        "Injuries have left the squad stretched thin.",
        "Nobody gave them a chance in August.",
        "The result sets up a tense final weekend.",
    ),
}

# Go to randomly chosen published English stories, so they are kept generic.
EMOJI_SUMMARY = "Everything you need to know in five minutes 📈, with one chart and no jargon."
QUOTE_SUMMARY = ('Officials called it "unprecedented". The leaked memo was filed under '
                 "Q:\\press\\drafts\\final-final.docx.")

# category, title, slug, summary
FOREIGN_STORIES = {
    "fr": (
        ("world", "Les agriculteurs bretons face à la sécheresse", "agriculteurs-bretons-secheresse",
         "Dans les Côtes-d'Armor, les nappes phréatiques n'ont jamais été aussi basses en été."),
        ("culture", "Le festival d'Avignon mise sur les jeunes troupes", "festival-avignon-jeunes-troupes",
         "Trois créations sur cinq sont signées par des compagnies de moins de cinq ans."),
        ("sport", "Le Tour de France s'élancera de Lille", "tour-de-france-depart-lille",
         "Les organisateurs ont dévoilé un parcours exigeant, avec deux contre-la-montre."),
        ("tech", "Une start-up lyonnaise réinvente la batterie au sodium", "start-up-lyonnaise-batterie-sodium",
         "Moins chère et sans lithium, la cellule promet 3 000 cycles de charge."),
        ("science", "Des fossiles inédits découverts dans le Jura", "fossiles-inedits-jura",
         "Les paléontologues décrivent un ptérosaure d'une espèce jusqu'ici inconnue."),
        ("culture", "Le retour en grâce du cinéma de quartier", "retour-cinema-de-quartier",
         "À Marseille comme à Rouen, les salles indépendantes affichent complet le mercredi."),
        ("world", "Grève des contrôleurs aériens : des milliers de vols annulés", "greve-controleurs-aeriens",
         "Le trafic devrait rester perturbé jusqu'à jeudi, selon la DGAC."),
        ("sport", "L'OL s'impose au bout du suspense", "ol-simpose-au-bout-du-suspense",
         "Un but à la 94e minute offre la victoire aux Lyonnais face à Nantes."),
        ("science", "Le télescope Euclid cartographie la matière noire", "euclid-cartographie-matiere-noire",
         "Les premières cartes révèlent des filaments longs de plusieurs millions d'années-lumière."),
        ("tech", "La fibre arrive enfin dans les villages de l'Ardèche", "fibre-villages-ardeche",
         "Près de 12 000 foyers ruraux seront raccordés d'ici la fin de l'année."),
    ),
    "de": (
        ("world", "Hochwasser an der Elbe: Dresden rüstet sich", "hochwasser-elbe-dresden",
         "Die Pegel steigen weiter; Helfer füllen seit Tagen Sandsäcke."),
        ("tech", "Münchner Start-up baut Wärmepumpen aus dem 3D-Drucker", "muenchner-startup-waermepumpen",
         "Das Gerät soll um ein Drittel günstiger sein als herkömmliche Modelle."),
        ("sport", "Der HSV träumt wieder von der Bundesliga", "hsv-traeumt-von-der-bundesliga",
         "Nach dem fünften Sieg in Folge ist die Stimmung im Volkspark euphorisch."),
        ("culture", "Berliner Clubs kämpfen ums Überleben", "berliner-clubs-kaempfen-ums-ueberleben",
         "Steigende Mieten und Lärmschutzauflagen setzen der Szene zu."),
        ("science", "Forscher entschlüsseln das Gedächtnis der Bienen", "gedaechtnis-der-bienen",
         "Honigbienen merken sich Blütenfarben länger als bisher angenommen."),
        ("world", "Bahnstreik legt den Fernverkehr lahm", "bahnstreik-legt-fernverkehr-lahm",
         "Pendler müssen sich bis Freitag auf Ausfälle und Verspätungen einstellen."),
        ("tech", "Glasfaser für jedes Dorf? Die Bilanz fällt gemischt aus", "glasfaser-fuer-jedes-dorf",
         "Nur knapp die Hälfte der geförderten Anschlüsse ist bisher in Betrieb."),
        ("culture", "Die documenta setzt auf Straßenkunst", "documenta-setzt-auf-strassenkunst",
         "Kassel verwandelt sich für hundert Tage in eine Freiluftgalerie."),
    ),
    "ja": (
        ("tech", "量子コンピューターの国産化へ前進", "quantum-computer-made-in-japan",
         "研究チームが新たに128量子ビットの試作機を公開した。"),
        ("culture", "京都の老舗喫茶店が百周年", "kyoto-kissaten-centenary",
         "創業以来変わらない味を求めて、朝から行列ができている。"),
        ("sport", "高校野球、延長十五回の熱戦", "koshien-fifteen-innings",
         "甲子園の準決勝は延長十五回までもつれ込んだ。"),
        ("science", "探査機の試料から新たなアミノ酸", "asteroid-sample-amino-acids",
         "小惑星の砂から、これまで未確認だった有機物が見つかった。"),
        ("world", "台風10号、九州に接近", "typhoon-approaches-kyushu",
         "気象庁は暴風と高潮に厳重な警戒を呼びかけている。"),
        ("culture", "漫画の原画展、海外でも人気", "manga-original-art-abroad",
         "パリとロサンゼルスでの巡回展に、合わせて20万人が訪れた。"),
    ),
}

EDITOR_NOTES = (
    "Corrected the launch date in the third paragraph.",
    "Updated with a response from the ministry.",
    "An earlier version misspelled Søren Ødegård's name.",
    "Figures updated after the final count.",
    "Headline changed; the original overstated the findings.",
    "Embargoed until the press conference — do not promote before then.",
)

# Where stories happen (for `location`), by category.
PLACES = {
    "world": ((50.8503, 4.3517), (41.0082, 28.9784), (-33.9249, 18.4241), (19.4326, -99.1332),
              (28.6139, 77.209), (-34.6037, -58.3816)),
    "tech": ((37.3875, -122.0575), (52.3676, 4.9041), (1.3521, 103.8198), (47.3769, 8.5417),
             (35.6762, 139.6503), (60.1699, 24.9384)),
    "science": ((78.2232, 15.6267), (-77.8419, 166.6863), (46.2044, 6.1432), (19.8207, -155.4681),
                (-24.6272, -70.4042), (64.1466, -21.9426)),
    "culture": ((48.8566, 2.3522), (45.5017, -73.5673), (57.7089, 11.9746), (-23.5505, -46.6333),
                (41.3874, 2.1686), (51.5072, -0.1276)),
    "sport": ((53.4631, -2.2913), (45.1885, 5.7245), (51.4343, -0.2145), (-37.8136, 144.9631),
              (50.6292, 3.0573), (34.6937, 135.5023)),
}

COMMENTERS = (
    "Ana Lúcia", "Björn Larsson", "Chloé M.", "Dmitri", "Ewa Łukasiewicz", "Fatou",
    "Giulia R.", "山田ひろし", "Ingrid", "jules_92", "Kwame A.", "Léa", "Mateus",
    "Nadia", "Olu", "Priyanka", "Quentin", "Rosa", "Sven", "Tomás", "ünal",
    "Wei", "xX_reader_Xx", "Yusuf", "Zainab",
)

COMMENT_BODIES = (
    "Great piece, thanks for the context.",
    "This is the clearest explanation I've read so far.",
    "Very one-sided. Where is the other point of view?",
    "Très bon article, merci !",
    "Danke für den Überblick – sehr hilfreich.",
    "素晴らしい記事です。",
    "👍 great read",
    "I live nearby and can confirm all of this.",
    "Could you link to the original study?",
    "Finally someone says it.",
    "The chart in the middle is mislabelled, I think.",
    "Sharing this with my class tomorrow.",
    "Two points:\n1. the numbers are from 2024\n2. the map is upside down",
    "Not convinced. Let's see what happens in a year.",
    "¡Qué buena noticia!",
    "Who edits these headlines? 🙄",
    "My grandfather used to say the same thing.",
    "Subscribed just to leave this comment.",
    "Correction: it was the second time, not the first.",
    "Ça alors… je n'en savais rien.",
    "Loved the photos.",
    "Is there a French version of this?",
    "Good reporting.\nMore of this, please.",
    "Bookmarking for later.",
)
SPAM_BODY = "Earn $$$ from home!!! Click my profile"


# ---------------------------------------------------------------------------
# Generation
# ---------------------------------------------------------------------------


def has_dash_prefix_conflict(slugs):
    """True if some slug + '-' starts another slug (byte vs key order differ)."""
    ordered = sorted(slugs)
    for a in ordered:
        for other in ordered:
            if other != a and other.startswith(a + "-"):
                return True
    return False


def make_story_specs(g):
    """Return a list of dicts: category, title, slug, summary, language."""
    rng = g.rng
    specs = []
    taken = set()
    for language in ("fr", "de", "ja"):
        for category, title, slug, summary in FOREIGN_STORIES[language]:
            assert slug not in taken, slug
            taken.add(slug)
            specs.append(dict(category=category, title=title, slug=slug,
                              summary=summary, language=language))
    weights = (25, 25, 20, 17, 23)
    while len(specs) < N_STORIES:
        category = rng.choices(CATEGORIES, weights=weights)[0]
        subjects, verbs, objects = TITLE_PARTS[category]
        title = "%s %s %s" % (rng.choice(subjects), rng.choice(verbs), rng.choice(objects))
        slug = slugify(title)
        if slug in taken or has_dash_prefix_conflict(taken | {slug}):
            continue
        taken.add(slug)
        first, second = rng.sample(SUMMARY_SENTENCES[category], 2)
        specs.append(dict(category=category, title=title, slug=slug,
                          summary=first + " " + second, language="en"))
    rng.shuffle(specs)
    return specs


def build(g):
    rng = g.rng
    author_by_slug = {a[0]: a for a in AUTHORS}

    # ---- stories -----------------------------------------------------------
    specs = make_story_specs(g)
    published_idx = set(rng.sample(range(N_STORIES), N_PUBLISHED))

    # Pick writers: language first, then beat.
    for n, spec in enumerate(specs):
        candidates = [a[0] for a in AUTHORS
                      if a[0] not in AUTHORS_WITHOUT_STORIES and spec["language"] in a[3]
                      and (spec["category"] in a[2] or spec["language"] != "en")]
        spec["author"] = rng.choice(candidates)
        spec["published"] = n in published_idx

    # Scores: skewed towards low values, so ties appear naturally.
    for spec in specs:
        spec["score"] = int(500 * rng.random() ** 1.8)
    # Guarantee a few explicit integer ties as well.
    tied = ((3, 4), (10, 11), (20, 21))
    for a, b_ in tied:
        specs[b_]["score"] = specs[a]["score"]
    # Integral doubles stored in `score`; the first one ties with an int 42.
    untouchable = {n for pair in tied for n in pair}
    double_idx = rng.sample([n for n in range(N_STORIES)
                             if specs[n]["published"] and n not in untouchable], SCORE_AS_DOUBLE)
    double_values = [42, 120, 250, 7, 310]
    int_42_candidates = [n for n in range(N_STORIES) if specs[n]["published"]
                         and n not in double_idx and n not in untouchable]
    specs[int_42_candidates[0]]["score"] = 42
    for n, value in zip(double_idx, double_values):
        specs[n]["score"] = float(value)
        specs[n]["score_is_double"] = True

    for n, spec in enumerate(specs):
        cat = spec["category"]
        pub = g.time(STORY_FIRST, STORY_LAST)
        spec["publishedAt"] = pub
        spec["createTime"] = g.time(pub - 5 * DAY, pub - 10 * MINUTE)
        if rng.random() < 0.4:
            spec["updatedAt"] = pub
        else:
            spec["updatedAt"] = g.later(pub, MINUTE, 30 * DAY)
        spec["updateTime"] = g.later(spec["updatedAt"], 0, 10 * DAY)

        spec["rating"] = round(1 + 4 * rng.random(), 1)
        n_tags = rng.choice((1, 2, 2, 3, 3, 4))
        pool = list(TAGS_BY_CATEGORY[cat]) + list(GENERAL_TAGS)
        main = rng.sample(TAGS_BY_CATEGORY[cat], 1)
        rest = rng.sample([t for t in pool if t not in main], n_tags - 1)
        spec["tags"] = main + rest
        spec["wordCount"] = 250 + rng.randrange(2750)
        if rng.random() < 0.5:
            lat, lng = rng.choice(PLACES[cat])
            spec["location"] = (round(lat + (rng.random() - 0.5) / 10, 4),
                                round(lng + (rng.random() - 0.5) / 10, 4))
        spec["heroImageDigest"] = digest("hero:" + spec["slug"], 16)
        if spec["published"]:
            views = int(spec["score"] * 40 + rng.randrange(2000))
            spec["stats"] = {"views": views,
                             "shares": int(views * rng.random() * 0.05),
                             "readRatio": round(0.1 + 0.85 * rng.random(), 3)}
        else:
            spec["stats"] = {"views": 0, "shares": 0, "readRatio": 0.0}
        spec["editorNote"] = None

    published = [n for n in range(N_STORIES) if specs[n]["published"]]
    english_published = [n for n in published if specs[n]["language"] == "en"]
    special = rng.sample(english_published, 12)
    specs[special[0]]["summary"] = EMOJI_SUMMARY
    specs[special[1]]["summary"] = QUOTE_SUMMARY
    specs[special[2]]["rating"] = float("nan")
    specs[special[3]]["rating"] = 3.0
    specs[special[4]]["rating"] = 4.0
    specs[special[5]]["sponsorId"] = BIG_INTS[0]
    specs[special[6]]["sponsorId"] = BIG_INTS[1]
    specs[special[7]]["tags"] = []
    specs[special[8]]["tags"] = []
    specs[special[9]]["stats"] = {}
    for n, note in zip(rng.sample(range(N_STORIES), len(EDITOR_NOTES)), EDITOR_NOTES):
        specs[n]["editorNote"] = note

    by_score = sorted(published, key=lambda n: (-specs[n]["score"], specs[n]["slug"]))
    featured = set(by_score[:6]) | set(rng.sample(by_score[6:], N_FEATURED - 6))
    for n, spec in enumerate(specs):
        spec["featured"] = n in featured

    # ---- comments ----------------------------------------------------------
    counts = {n: 0 for n in published}
    weights = [specs[n]["score"] + 30 for n in published]
    total = 0
    while total < N_COMMENTS:
        n = rng.choices(published, weights=weights)[0]
        if counts[n] < MAX_COMMENTS_PER_STORY:
            counts[n] += 1
            total += 1

    comments = []
    for n in published:
        spec = specs[n]
        times = sorted(g.later(spec["publishedAt"], MINUTE, 45 * DAY) for _ in range(counts[n]))
        for k, created in enumerate(times, start=1):
            approved = rng.random() < 0.88
            if approved:
                flags = ["reported"] if rng.random() < 0.05 else []
                body = rng.choice(COMMENT_BODIES)
            else:
                flags = rng.choice((["spam"], ["off-topic"], ["abuse", "spam"], []))
                body = SPAM_BODY if "spam" in flags else rng.choice(COMMENT_BODIES)
            updated = created if rng.random() < 0.7 else g.later(created, MINUTE, 3 * DAY)
            comments.append(dict(
                path="stories/%s/comments/c%03d" % (spec["slug"], k),
                story=spec["slug"], author=rng.choice(COMMENTERS), body=body,
                createdAt=created, likes=int(300 * rng.random() ** 3),
                approved=approved, flags=flags, createTime=created, updateTime=updated))

    # ---- authors -----------------------------------------------------------
    authors = []
    for slug, name, beats, languages, home, social, bio in AUTHORS:
        mine = [specs[n] for n in range(N_STORIES) if specs[n]["author"] == slug]
        if mine:
            first = min(m["createTime"] for m in mine)
            joined = g.time(T_MIN, min(first, epoch_ns(2025, 4, 1)))
        else:  # a recent hire
            joined = g.time(epoch_ns(2026, 8, 1), epoch_ns(2026, 10, 1))
        last = max([m["updateTime"] for m in mine if m["published"]], default=joined)
        topics = list(beats) + rng.sample(
            [t for c in beats for t in TAGS_BY_CATEGORY[c]], min(2, len(beats) + 1))
        topics = list(dict.fromkeys(topics))
        social_fields = {}
        if social[0]:
            social_fields["twitter"] = s(social[0])
        if social[1]:
            social_fields["mastodon"] = s(social[1])
        rating = INTEGRAL_AUTHOR_RATING.get(slug, round(3 + 2 * rng.random(), 2))
        authors.append(dict(
            slug=slug, name=name, bio=bio, languages=languages, home=home,
            email=slug.replace("-", ".") + "@news.bundlepress.example",
            joinedAt=joined, active=slug not in INACTIVE_AUTHORS,
            articleCount=sum(1 for m in mine if m["published"]),
            avatarDigest=digest("avatar:" + slug, 8 + len(authors) % 9),
            social=social_fields, topics=topics, rating=rating,
            createTime=joined, updateTime=max(joined, g.later(last, 0, HOUR))))

    return specs, comments, authors, by_score


def author_docs(authors):
    docs = []
    for a in authors:
        fields = {
            "name": s(a["name"]),
            "bio": s(a["bio"]),
            "email": s(a["email"]),
            "joinedAt": ts(a["joinedAt"]),
            "active": b(a["active"]),
            "articleCount": i(a["articleCount"]),
            "avatarDigest": by(a["avatarDigest"]),
            "social": mp(a["social"]),
            "home": geo(*a["home"]),
            "topics": arr([s(t) for t in a["topics"]]),
            "rating": d(a["rating"]),
        }
        docs.append(document("authors/" + a["slug"], fields, a["createTime"], a["updateTime"]))
    return docs


def story_docs(specs):
    docs = []
    for spec in specs:
        score = d(spec["score"]) if spec.get("score_is_double") else i(spec["score"])
        fields = {
            "title": s(spec["title"]),
            "slug": s(spec["slug"]),
            "summary": s(spec["summary"]),
            "category": s(spec["category"]),
            "published": b(spec["published"]),
            "publishedAt": ts(spec["publishedAt"]),
            "updatedAt": ts(spec["updatedAt"]),
            "author": ref("authors/" + spec["author"]),
            "score": score,
            "rating": d(spec["rating"]),
            "tags": arr([s(t) for t in spec["tags"]]),
            "wordCount": i(spec["wordCount"]),
            "featured": b(spec["featured"]),
        }
        if "location" in spec:
            fields["location"] = geo(*spec["location"])
        fields["heroImageDigest"] = by(spec["heroImageDigest"])
        st = spec["stats"]
        fields["stats"] = mp({"views": i(st["views"]), "shares": i(st["shares"]),
                              "readRatio": d(st["readRatio"])} if st else {})
        fields["editorNote"] = null() if spec["editorNote"] is None else s(spec["editorNote"])
        fields["language"] = s(spec["language"])
        if "sponsorId" in spec:
            fields["sponsorId"] = i(spec["sponsorId"])
        docs.append(document("stories/" + spec["slug"], fields,
                             spec["createTime"], spec["updateTime"]))
    return docs


def comment_docs(comments):
    docs = []
    for c in comments:
        fields = {
            "author": s(c["author"]),
            "body": s(c["body"]),
            "createdAt": ts(c["createdAt"]),
            "likes": i(c["likes"]),
            "approved": b(c["approved"]),
            "story": ref("stories/" + c["story"]),
            "flags": arr([s(f) for f in c["flags"]]),
        }
        docs.append(document(c["path"], fields, c["createTime"], c["updateTime"]))
    return docs


def site_docs(g, hero_slug):
    launched = epoch_ns(2025, 1, 15, 9)
    settings = {
        "title": s("BundlePress Daily"),
        "tagline": s("News that works offline."),
        "defaultLocale": s("en"),
        "locales": arr([s(x) for x in ("en", "fr", "de", "ja")]),
        "maintenance": b(False),
        "launchedAt": ts(launched),
        "palette": mp({
            "primary": s("#0b57d0"),
            "accent": s("#e8710a"),
            "background": s("#ffffff"),
            "text": s("#1f1f1f"),
            "dark": mp({"background": s("#131314"), "text": s("#e3e3e3")}),
        }),
        "heroStory": ref("stories/" + hero_slug),
        "storiesPerPage": i(20),
    }
    labels = {
        "world": ("World", "Monde", "Welt", "国際"),
        "tech": ("Tech", "Tech", "Technik", "テクノロジー"),
        "science": ("Science", "Sciences", "Wissenschaft", "科学"),
        "culture": ("Culture", "Culture", "Kultur", "文化"),
        "sport": ("Sport", "Sport", "Sport", "スポーツ"),
    }
    sections = []
    for order, cat in enumerate(CATEGORIES, start=1):
        en, fr, de, ja = labels[cat]
        sections.append(mp({
            "label": s(en), "category": s(cat), "order": i(order),
            "labels": mp({"en": s(en), "fr": s(fr), "de": s(de), "ja": s(ja)}),
        }))
    navigation = {"sections": arr(sections)}
    created = epoch_ns(2025, 1, 10, 14, 30)
    return [
        document("site/settings", settings, created, g.time(epoch_ns(2026, 9, 1), T_MAX)),
        document("site/navigation", navigation, created + 123_456_789,
                 g.time(epoch_ns(2025, 6, 1), epoch_ns(2025, 7, 1))),
    ]


def encode(doc):
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"), allow_nan=False)


def write_ndjson(path, docs):
    docs = sorted(docs, key=lambda doc: doc["name"].encode("utf-8"))
    path.parent.mkdir(parents=True, exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        for doc in docs:
            f.write(encode(doc) + "\n")


FILES = ("authors.ndjson", "stories.ndjson", "comments.ndjson", "site/config.ndjson")


def generate(outdir):
    g = Gen(SEED)
    specs, comments, authors, by_score = build(g)
    hero = next(specs[n]["slug"] for n in by_score if specs[n]["featured"])
    write_ndjson(outdir / "authors.ndjson", author_docs(authors))
    write_ndjson(outdir / "stories.ndjson", story_docs(specs))
    write_ndjson(outdir / "comments.ndjson", comment_docs(comments))
    write_ndjson(outdir / "site" / "config.ndjson", site_docs(g, hero))


# ---------------------------------------------------------------------------
# Validation
# ---------------------------------------------------------------------------

TS_RE = re.compile(r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3}|\.\d{6}|\.\d{9})?Z$")
INT_RE = re.compile(r"^-?(0|[1-9]\d*)$")
B64_RE = re.compile(r"^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$")
VALUE_KEYS = {"nullValue", "booleanValue", "integerValue", "doubleValue", "timestampValue",
              "stringValue", "bytesValue", "referenceValue", "geoPointValue",
              "arrayValue", "mapValue"}


def parse_time(text):
    """Return ns since epoch for a validated RFC 3339 `Z` timestamp."""
    main, _, frac = text[:-1].partition(".")
    secs = int(datetime.strptime(main, "%Y-%m-%dT%H:%M:%S")
               .replace(tzinfo=timezone.utc).timestamp())
    return secs * NS + int((frac + "000000000")[:9])


def check_time(text, where, errors):
    if not isinstance(text, str) or not TS_RE.match(text):
        errors.append("%s: bad timestamp %r" % (where, text))
        return None
    if fmt_time(parse_time(text)) != text:
        errors.append("%s: timestamp not in shortest form %r" % (where, text))
    ns = parse_time(text)
    if not T_MIN <= ns < T_MAX:
        errors.append("%s: timestamp out of range %r" % (where, text))
    return ns


def check_value(v, where, errors, refs):
    if not isinstance(v, dict) or len(v) != 1 or next(iter(v)) not in VALUE_KEYS:
        errors.append("%s: not a value object: %r" % (where, v))
        return
    (kind, x), = v.items()
    if kind == "nullValue":
        ok = x is None
    elif kind == "booleanValue":
        ok = isinstance(x, bool)
    elif kind == "integerValue":
        ok = isinstance(x, str) and bool(INT_RE.match(x)) and -2**63 <= int(x) < 2**63
    elif kind == "doubleValue":
        ok = (isinstance(x, float) and math.isfinite(x)) or x in ("NaN", "Infinity", "-Infinity")
    elif kind == "timestampValue":
        ok = check_time(x, where, errors) is not None
    elif kind == "stringValue":
        ok = isinstance(x, str)
    elif kind == "bytesValue":
        ok = isinstance(x, str) and bool(B64_RE.match(x)) and len(base64.b64decode(x)) > 0
    elif kind == "referenceValue":
        ok = isinstance(x, str) and x.startswith(ROOT)
        refs.append((where, x))
    elif kind == "geoPointValue":
        ok = (isinstance(x, dict) and set(x) == {"latitude", "longitude"}
              and all(isinstance(x[k], float) for k in x)
              and -90 <= x["latitude"] <= 90 and -180 <= x["longitude"] <= 180)
    elif kind == "arrayValue":
        ok = isinstance(x, dict) and (x == {} or (set(x) == {"values"} and x["values"]))
        for n, item in enumerate(x.get("values", []) if ok else []):
            check_value(item, "%s[%d]" % (where, n), errors, refs)
    else:  # mapValue
        ok = isinstance(x, dict) and (x == {} or (set(x) == {"fields"} and x["fields"]))
        for key, item in (x.get("fields", {}).items() if ok else []):
            check_value(item, "%s.%s" % (where, key), errors, refs)
    if not ok:
        errors.append("%s: bad %s %r" % (where, kind, x))


def check(outdir):
    """Validate OUTDIR; print per-collection counts; return a list of errors."""
    errors, refs, names, counts = [], [], set(), {}
    for rel in FILES:
        path = outdir / rel
        raw = path.read_bytes()
        if not raw.endswith(b"\n"):
            errors.append("%s: no final newline" % rel)
        previous = None
        for lineno, line in enumerate(raw.decode("utf-8").split("\n")[:-1], start=1):
            where = "%s:%d" % (rel, lineno)
            try:
                doc = json.loads(line)
            except ValueError as e:
                errors.append("%s: invalid JSON: %s" % (where, e))
                continue
            if encode(doc) != line:
                errors.append("%s: not compact canonical JSON" % where)
            if list(doc) != ["name", "fields", "createTime", "updateTime"]:
                errors.append("%s: keys %r" % (where, list(doc)))
                continue
            name = doc["name"]
            if not name.startswith(ROOT) or len(name[len(ROOT):].split("/")) % 2:
                errors.append("%s: bad name %r" % (where, name))
            if name in names:
                errors.append("%s: duplicate %s" % (where, name))
            names.add(name)
            key = name.encode("utf-8")
            if previous is not None and key <= previous:
                errors.append("%s: not sorted by name" % where)
            previous = key
            collection = "/".join(name[len(ROOT):].split("/")[0:-1:2])
            counts[collection] = counts.get(collection, 0) + 1
            c = check_time(doc["createTime"], where + " createTime", errors)
            u = check_time(doc["updateTime"], where + " updateTime", errors)
            if c is not None and u is not None and c > u:
                errors.append("%s: createTime > updateTime" % where)
            if not isinstance(doc["fields"], dict) or not doc["fields"]:
                errors.append("%s: fields must be a non-empty object" % where)
                continue
            for field, value in doc["fields"].items():
                check_value(value, "%s %s" % (where, field), errors, refs)
    for where, target in refs:
        if target not in names:
            errors.append("%s: dangling reference %s" % (where, target))
    comment_names = sorted(n[len(ROOT):] for n in names if "/comments/" in n)
    if comment_names != sorted(comment_names, key=lambda p: p.split("/")):
        errors.append("comments: byte order differs from segment-wise key order")
    for collection in sorted(counts):
        print("%-20s %4d documents" % (collection, counts[collection]))
    print("%-20s %4d documents, %d references" % ("total", sum(counts.values()), len(refs)))
    return errors


def main(argv):
    args = argv[1:]
    check_only = "--check" in args
    args = [a for a in args if a != "--check"]
    if len(args) > 1 or any(a.startswith("-") for a in args):
        print(__doc__.split("\n\n")[1], file=sys.stderr)
        return 2
    outdir = Path(args[0]) if args else Path(__file__).resolve().parent.parent / "exports"
    if not check_only:
        generate(outdir)
        print("wrote %s" % ", ".join(str(outdir / f) for f in FILES))
    errors = check(outdir)
    for e in errors[:50]:
        print("ERROR " + e, file=sys.stderr)
    if errors:
        print("%d errors" % len(errors), file=sys.stderr)
        return 1
    print("ok")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
