"""Research environments (docs/envs.md): the same seat views behind standard APIs.

* :mod:`atout.envs.encoding`: a seat's view as numpy arrays, and each game's fixed action space;
* :mod:`atout.envs.pettingzoo`: a PettingZoo AEC environment for every game;
* :mod:`atout.envs.gymnasium`: a Gymnasium environment for one seat, the others played by bots.

They need the ``rl`` extra (``pip install -e '.[rl]'``).
"""
