"""What is stored: tables and games, their seats, the ordered action log, chat and presence.

The action log is the truth. Everything a client sees (history, snapshots, replays, review
data, paifu) is derived from it by replaying the engine.
"""

import json
from typing import Any

from django.conf import settings
from django.db import models
from django.db.models.signals import post_delete, post_save
from django.dispatch import receiver


class Arrangement(models.IntegerChoices):
    # Numbering follows the Acquire review data (seed 003), shared by every game type.
    RANDOM = 1, "Random order"
    EXACT = 2, "Exact order"
    TEAMS = 3, "Specify teams"


class Status(models.TextChoices):
    SETUP = "setup", "Being set up"
    ACTIVE = "active", "In progress"
    # Every person at an untimed game went away: play stops until one comes back
    # (games/service/abandon.py, docs/abandoned-games.md).
    ADJOURNED = "adjourned", "Adjourned"
    FINISHED = "finished", "Finished"
    ABORTED = "aborted", "Aborted"


class Game(models.Model):
    game_type = models.CharField(max_length=32, db_index=True)
    mode = models.PositiveSmallIntegerField()
    arrangement = models.PositiveSmallIntegerField(choices=Arrangement.choices, default=Arrangement.RANDOM)
    host = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="hosted_games"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.SETUP, db_index=True)
    # Drawn from the secrets module when the game starts; the engine takes all randomness from it.
    seed = models.BigIntegerField(null=True, blank=True)
    rules = models.JSONField(default=dict, blank=True)
    time_start = models.PositiveIntegerField(null=True, blank=True, help_text="Seconds per player; empty = untimed")
    time_increment = models.PositiveIntegerField(default=0, help_text="Seconds added after each action")
    # majiang-server's clock instead (games/service/clocks.py): seconds per decision, plus a bank per hand.
    time_per_decision = models.PositiveIntegerField(
        null=True, blank=True, help_text="Seconds per decision; empty = no per-decision clock")
    time_bank = models.PositiveIntegerField(default=0, help_text="Seconds of bank per hand (per-decision clock)")
    # Spectators see the game this many seconds late, so nobody watching can coach a player
    # (docs/riichi-table.md, "Spectators"); players see it live.
    spectator_delay = models.PositiveIntegerField(default=0, help_text="Seconds spectators see the game late; 0 = live")
    # Rated: the game's end changes its players' ratings (docs/ratings.md). A table opened in the
    # lobby is rated unless its host says casual (``lobby.create_table``); the field's default is
    # casual, so a game made any other way (an imported record, a game from before ratings) is.
    rated = models.BooleanField(default=False, help_text="The game's result changes its players' ratings")
    rated_people_only = models.BooleanField(default=False, help_text="No bot may take a seat at this table")
    # Bumped by every lobby change, so stale setup requests can be told apart.
    setup_version = models.PositiveIntegerField(default=0)
    # Time control: when the clocks of the seats the game waits for started running, and when the
    # first of them runs out (indexed: the clock sweeper looks for games past their deadline).
    clock_since_ms = models.BigIntegerField(null=True, blank=True)
    deadline_ms = models.BigIntegerField(null=True, blank=True, db_index=True)
    # When the abandon watch (games/service/abandon.py) first found none of the game's people connected;
    # None while someone is. Adjourning sets it to their last move if that came later: the abort
    # is counted from here.
    absent_since_ms = models.BigIntegerField(null=True, blank=True)
    # Number of actions in the log; every pushed game message carries it.
    seq = models.PositiveIntegerField(default=0)
    history_size = models.PositiveIntegerField(default=0, help_text="Number of game history messages so far")
    # Bumped by every change to the table's chat (posted, edited or deleted in the admin), so a
    # process can keep the recent chat of a table and know from the row whether it is current.
    chat_version = models.PositiveIntegerField(default=0)
    # Answers to an open decision window (riichi's calls on a discard) that did not close it:
    # [position, type, params, answers, arrived_ms, auto] each, in the order they came. They are
    # applied, and enter the log, together with the answer that closes the window, so nothing
    # public (seq, history, pushes, timing) tells who answered when (games/service/window.py). Kept on the
    # row, in the same transaction as the answer's acknowledgement: a restart loses none. As secret
    # as the seed while the game is live.
    window_answers = models.JSONField(default=list, blank=True, editable=False)
    result = models.JSONField(null=True, blank=True)
    created = models.DateTimeField(auto_now_add=True, db_index=True)
    started = models.DateTimeField(null=True, blank=True)
    ended = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-id"]
        indexes = [models.Index(fields=["game_type", "status"])]

    def __str__(self) -> str:
        return f"{self.game_type} #{self.display_number}"

    @property
    def display_number(self) -> int:
        return self.id

    @property
    def is_over(self) -> bool:
        return self.status in (Status.FINISHED, Status.ABORTED)

    @property
    def record_downloadable(self) -> bool:
        """Is its record served (GET /api/games/<id>/record/)? Once the game is over, except a
        riichi game aborted mid-hand: no paifu can stop halfway through a hand."""
        if self.seed is None or not self.is_over:
            return False
        return self.status == Status.FINISHED or self.game_type != "riichi"


class Seat(models.Model):
    """A user at a table. During set-up ``slot`` is the order the host arranged; ``position`` is
    the player order fixed when the game starts."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="seats")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="seats")
    slot = models.PositiveSmallIntegerField()
    position = models.PositiveSmallIntegerField(null=True, blank=True)
    team = models.PositiveSmallIntegerField(null=True, blank=True)
    accepted = models.BooleanField(default=False)
    forfeited = models.BooleanField(default=False)
    # The player's client went away without leaving (lifecycle.set_away): the server plays the seat
    # until they come back.
    away = models.BooleanField(default=False)
    clock_ms = models.BigIntegerField(null=True, blank=True, help_text="Time left when the clock last stopped")
    bank_ms = models.BigIntegerField(null=True, blank=True, help_text="Time bank left (per-decision clock)")
    joined = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["game", "slot"]
        constraints = [
            models.UniqueConstraint(fields=["game", "user"], name="one_seat_per_user"),
            models.UniqueConstraint(fields=["game", "position"], name="one_user_per_position"),
        ]

    def __str__(self) -> str:
        return f"{self.user} at {self.game}"


class Action(models.Model):
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="actions")
    seq = models.PositiveIntegerField(help_text="1-based position in the game's log")
    seat = models.PositiveSmallIntegerField(null=True, blank=True)
    type = models.CharField(max_length=40)
    params = models.JSONField(default=list, blank=True)
    timestamp_ms = models.BigIntegerField(help_text="Milliseconds since the Unix epoch")
    auto = models.BooleanField(default=False, help_text="Played by the server (time expiry or forfeit)")
    # The game seq the acting client had seen: a doubled reply answers a seq it already answered.
    answers = models.PositiveIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seq"]
        constraints = [models.UniqueConstraint(fields=["game", "seq"], name="one_action_per_seq")]

    def __str__(self) -> str:
        return f"{self.game} #{self.seq} {self.type}"


class GameRecord(models.Model):
    """What a finished game shows everybody, stored when it ends (everything is revealed then, to
    everyone alike): its whole history and each seat's and a spectator's final view. Snapshots and
    history of a finished game are read from here, so watching one costs a read, not a replay of
    its log. Derived from the log like everything else; the log stays the truth."""

    game = models.OneToOneField(Game, primary_key=True, on_delete=models.CASCADE, related_name="record")
    history = models.JSONField(help_text="Every history message, revealed")
    views = models.JSONField(help_text="Final views by viewer: seat positions as strings, 'spectator'")
    # The game type's own record (games/records/native.py): what a player downloads and their tools read.
    format = models.CharField(max_length=32, blank=True, default="",
                              help_text="acquire-review, majiang-paifu or cribbage-record")
    version = models.PositiveSmallIntegerField(default=0, help_text="The format's version; 0: written before records")
    # JSON text, exactly as written: PostgreSQL's jsonb would reorder its keys, and a download is
    # served as it is stored.
    document = models.TextField(blank=True, default="",
                                help_text="The native record (JSON text); empty where the format has none")
    # Where each history message came from (the step that brought it), written with the replay
    # frames (``ReplayFrame``); None until they are.
    message_steps = models.JSONField(null=True, blank=True, default=None, help_text=(
        "The step of each history message; null until the replay frames are built"))
    frames_every = models.PositiveSmallIntegerField(default=0, help_text="Steps per replay frame; 0: none built")

    def __str__(self) -> str:
        return f"record of {self.game}"

    def native(self) -> Any:
        """The native record, parsed (None where the format has none)."""
        return json.loads(self.document) if self.document else None

    def view(self, position: int | None) -> dict:
        return self.views["spectator" if position is None else str(position)]


class ReplayFrame(models.Model):
    """A run of a finished game's steps as the replay shows them (``games/records/frames.py``): step N of
    the replay reads one of these instead of replaying N actions. Derived from the log."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="frames")
    chunk = models.PositiveIntegerField(help_text="Steps chunk × frames_every onwards")
    data = models.BinaryField(help_text="zlib-compressed JSON: the first step's view, then the changes")

    class Meta:
        ordering = ["game", "chunk"]
        constraints = [models.UniqueConstraint(fields=["game", "chunk"], name="one_frame_per_chunk")]

    def __str__(self) -> str:
        return f"{self.game} frames #{self.chunk}"


class ReviewStatus(models.TextChoices):
    PENDING = "pending", "Asked for, waiting to be built"
    BUILDING = "building", "Being built"
    DONE = "done", "Built"
    FAILED = "failed", "The build failed"


class RiichiReview(models.Model):
    """One seat's decisions in a finished riichi game beside the strong bot's (docs/review.md):
    built in the background when asked for (``games/service/review.py``), kept with the game's
    record and served as stored. Derived from the log, like the record."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="riichi_reviews")
    seat = models.PositiveSmallIntegerField(help_text="The reviewed seat's position")
    status = models.CharField(max_length=16, choices=ReviewStatus.choices, default=ReviewStatus.PENDING)
    done = models.PositiveIntegerField(default=0, help_text="The seat's actions gone through so far")
    total = models.PositiveIntegerField(default=0, help_text="The seat's actions in the log; 0 until the build starts")
    version = models.PositiveSmallIntegerField(default=0, help_text="The review format's version; 0 until built")
    # JSON text, exactly as built: the download serves it as it is stored (as GameRecord.document).
    document = models.TextField(blank=True, default="", help_text="The review (JSON text); empty until built")
    error = models.CharField(max_length=200, blank=True, default="", help_text="Why the build failed")
    # Who is building it, and when it last said so: a build whose heartbeat is older than
    # REVIEW_STALE_SECONDS died with its process and is taken over by the next worker.
    worker = models.CharField(max_length=64, blank=True, default="")
    heartbeat = models.DateTimeField(null=True, blank=True)
    requested = models.DateTimeField(auto_now_add=True)
    finished = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["game", "seat"]
        constraints = [models.UniqueConstraint(fields=["game", "seat"], name="one_review_per_seat")]

    def __str__(self) -> str:
        return f"review of seat {self.seat} in {self.game}"


class Rating(models.Model):
    """A player's rating in one game type (OpenSkill's mu and sigma, docs/ratings.md), as left by
    the last rated game they finished. Derived: ``manage.py ratings rebuild`` replays the rated
    games (``RatingChange``) to the same values."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="ratings")
    game_type = models.CharField(max_length=32)
    # Doubles: the exact floats OpenSkill returned, so a rebuild can be compared exactly.
    mu = models.FloatField()
    sigma = models.FloatField()
    games = models.PositiveIntegerField(default=0, help_text="Rated games finished")
    last_played = models.DateTimeField(help_text="When the last rated game of this type ended")

    class Meta:
        ordering = ["game_type", "user"]
        constraints = [models.UniqueConstraint(fields=["user", "game_type"], name="one_rating_per_game_type")]
        indexes = [models.Index(fields=["game_type", "last_played"])]

    def __str__(self) -> str:
        return f"{self.user} in {self.game_type}: {self.mu:.2f} ± {self.sigma:.2f}"


class RatingChange(models.Model):
    """What one rated game did to one player's rating: before and after, and the place it was
    computed from (1 is first; tied sides share a place; a forfeit places last)."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="rating_changes")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="rating_changes")
    game_type = models.CharField(max_length=32)
    position = models.PositiveSmallIntegerField()
    rank = models.PositiveSmallIntegerField()
    mu_before = models.FloatField()
    sigma_before = models.FloatField()
    mu_after = models.FloatField()
    sigma_after = models.FloatField()

    class Meta:
        ordering = ["game", "position"]
        constraints = [models.UniqueConstraint(fields=["game", "user"], name="one_rating_change_per_player")]
        indexes = [models.Index(fields=["user", "game_type"])]

    def __str__(self) -> str:
        return f"{self.user} in {self.game}: {self.mu_before:.2f} → {self.mu_after:.2f}"


class QueueEntry(models.Model):
    """A player waiting in Play now (docs/play-now.md), or just seated by it: the table asked for
    (``key`` names the queue; ``options`` the choices), the player's skill when they joined (mu),
    since when they wait, their wait for bots, and until when the entry is held (a live connection
    of the player's or a REST poll keeps moving ``held_ms`` on). Stored, so every server process
    matches the same queue and a restart keeps it."""

    class Via(models.TextChoices):
        SOCKET = "socket", "lobby WebSocket"
        REST = "rest", "REST"

    user = models.OneToOneField(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="queue_entry")
    game_type = models.CharField(max_length=32)
    key = models.CharField(max_length=200, db_index=True, help_text="The queue: the same table asked for")
    options = models.JSONField(default=dict)
    mu = models.FloatField()
    since_ms = models.BigIntegerField()
    bots_after = models.PositiveIntegerField(null=True, blank=True, help_text="Seconds; empty: never")
    via = models.CharField(max_length=8, choices=Via.choices)
    held_ms = models.BigIntegerField(help_text="Matched only while held; removed a grace after")
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="+",
                             help_text="The table it was seated at")

    class Meta:
        ordering = ["since_ms", "id"]
        verbose_name_plural = "queue entries"

    def __str__(self) -> str:
        if self.game_id is None:
            return f"{self.user} waiting for {self.key}"
        return f"{self.user} seated at {self.game_id}"


class ChatMessage(models.Model):
    MAX_LENGTH = 500

    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.CASCADE, related_name="chat")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE)
    text = models.CharField(max_length=MAX_LENGTH)
    created = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"{self.user}: {self.text[:40]}"


@receiver(post_save, sender=ChatMessage)
@receiver(post_delete, sender=ChatMessage)
def _chat_changed(sender: type[ChatMessage], instance: ChatMessage, **kwargs: Any) -> None:
    """Every change to a table's chat, however made (posted, or edited and deleted one by one or
    in bulk in the admin: both send these signals), bumps the table's ``chat_version``."""
    if instance.game_id is not None:
        Game.objects.filter(id=instance.game_id).update(chat_version=models.F("chat_version") + 1)


class Client(models.Model):
    """One live connection (a browser tab or a bot). Stored so that every Daphne process
    can list who is online."""

    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="clients")
    channel_name = models.CharField(max_length=200)
    # The server process holding the connection, so a restarted server can forget the clients
    # of the process it replaced.
    server = models.CharField(max_length=32, default="", db_index=True)
    game = models.ForeignKey(Game, null=True, blank=True, on_delete=models.SET_NULL)
    connected = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]

    def __str__(self) -> str:
        return f"client {self.id} of {self.user}"


class ServerProcess(models.Model):
    """A running server process. It refreshes ``last_seen_ms`` every few seconds; once that is too
    old the process is taken for dead and its ``Client`` rows are removed by any process still
    alive, so a crash leaves nobody "online" for good (games/service/presence.py)."""

    id = models.CharField(max_length=32, primary_key=True)
    last_seen_ms = models.BigIntegerField(db_index=True)

    def __str__(self) -> str:
        return f"server {self.id}"

