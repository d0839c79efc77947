"""Finished games made by hand for the rating tests, ended as the write path ends a game, and the
expected values from OpenSkill called directly."""

from __future__ import annotations

from django.db import transaction
from openskill.models import PlackettLuce

from games.core import ratings as model
from games.models import Game, Seat, Status
from games.service import ratings as service

START = (model.MU, model.SIGMA)


def expected(teams, ranks):
    pl = PlackettLuce()
    rated = pl.rate([[pl.rating(mu=mu, sigma=sigma) for mu, sigma in team] for team in teams], ranks=ranks)
    return [[(p.mu, p.sigma) for p in team] for team in rated]


def end(users, result, *, game_type="acquire", mode=None, forfeited=(), rated=True, status=Status.FINISHED):
    """A game of ``users`` (by position) that ends now with ``result``, as the write path ends one:
    status and result set, then ``settle`` in the same transaction, then the row saved."""
    with transaction.atomic():
        game = Game.objects.create(game_type=game_type, mode=mode or len(users), status=status, rated=rated,
                                   result=result, seed=1)
        seats = [Seat.objects.create(game=game, user=u, slot=p, position=p, accepted=True, forfeited=p in forfeited)
                 for p, u in enumerate(users)]
        service.settle(game, seats)
        game.save(update_fields=["ended"])
    return game


def singles(*ranks):
    return {"players": [{"seat": s, "rank": r} for s, r in enumerate(ranks)]}


def teams_result(*teams):
    return {"players": [], "teams": [{"team": t, "seats": list(seats), "rank": rank}
                                     for t, (seats, rank) in enumerate(teams)]}


