"""Interop: every game as an OpenSpiel game (``solver.interop.openspiel``,
extra ``openspiel``) and a PettingZoo environment
(``solver.interop.pettingzoo``, extra ``pettingzoo``); docs/interop.md.

The package sits beside ``solver.search`` (docs/architecture.md): it uses
the game protocol and the world samplers, never the search or the players.
The framework modules import their framework when they are imported; this
package itself imports none."""
