# cython: language_level=3
"""SO-ISMCTS in C over compact states (nogil), for every decision of the
card games: card play (dix, the trick contracts and the layout of trix /
tricks, dixie-rook), and the decisions around it (the trix / tricks
contract choice, doubling and redeal claims; dixie-rook's auction, nest
and trumps; every dix-exchange decision).

The same algorithm as ``solver/search/ismcts.py`` (its pure-Python twin;
see that module for the description): per iteration a uniform
determinization (a walk of the seat view's compiled sampler graph), a
descent of a tree keyed by actions with availability counts, a play-out to
the end of the deal, and each seat's reward (its deal result over the
game's scale, in [-1, 1]) backed up.  Root-parallel: each tree grows
from its own seed and the root statistics are summed; worker threads only
run the trees, so a seed and a number of trees fix the answer, whatever
the number of threads (``run_trees``).

One search, many games: the tree code here (``grow_tree``, ``grow_flat``,
``run_trees``) and the one ``Search`` class are written once against a
table of game operations (``Ops``, tree.pxd); each game's header supplies
its compact state, rules and ``Ops``: dix.pxd (dix card play), trick.pxd
(a trick contract, the layout; their rules of play are trickrules.pxd's),
deal.pxd (a whole trix / tricks deal from the contract choice; the rules
player it plays is contract_player.pxd), rook.pxd (dixie-rook card
play), hand.pxd (a whole dixie-rook hand from the auction), exchange.pxd
(a dix-exchange round).
Each kind of search is one row of ``GAMES`` below (its ``Ops``, its
sampler's kind, how its rules and state load and what ``simulate``
reports), chosen by name when a ``Search`` is built: a new game adds a
row, not a class.

Selection: UCB1 with availability counts, ``mean + c sqrt(ln avail /
visits)``, at nodes whose game gives no heuristic move (card play); PUCT
where it gives one (``Ops.prior``: the non-card decisions), as the Python
search: ``Q + c P sqrt(avail) / (1 + visits)`` with ``P`` one half on the
heuristic's move and the rest split evenly, an untried move valued at its
tried siblings' mean.  Without it the few iterations a later decision of
another seat gets leave it near random in the tree (dixie-rook: a UCB1
auction overbids).  With a learned policy (``Ops.policy``, set by
``Search.set_policy``: the card play of dix and of the trix / tricks trick
contracts) every card node selects by PUCT too, ``P`` the policy's
probability of each card for the mover's own hand in the world the
iteration drew (each seat on its own cards, never the searching seat's
view of them) on the node's first ``POLICY_DRAWS`` visits, then the mean
of those draws (the busy nodes stop paying for the policy).  A flat search (``flat``) instead plays every root move
once in each determinization, in order, with no tree below: paired
comparisons of equal work (the contract choice).

Root offsets: a search may add a constant per root move to the reward that
move's root statistics receive (``offsets``; the contract choice: minus
the contract's average-deal value), so that its means, intervals and the
root's allocation are in the units the decision is judged in.

Statistics returned by ``run``: ``(visits, means, iterations, squares,
per_tree, batches)``; ``batches``, one dict per tree ``{action: [(count,
sum), ...]}``, are the batch means of each root move's rewards in the
order they arrived (``batch_add``): up to ``BATCH_SLOTS`` consecutive
batches, the batch size doubling (adjacent batches merged) whenever the
slots are full, so a search of any length ends with 16 to 32 batches per
move and tree, the last one possibly partial.  Their spread is an honest
interval for a mean of correlated rewards, whatever the number of trees.

Progress and cancellation: while the trees grow, the calling thread is a
monitor (OpenMP thread 0 of the team; the trees grow on threads 1..W).
About every ``POLL_SECONDS`` it takes the GIL and calls ``poll(iterations,
visits, means)`` with the root statistics so far (read while the trees
grow: approximate, for reports); a true result, or an exception (Ctrl-C
raises ``KeyboardInterrupt`` there when the caller is the main thread),
sets a stop flag that every tree checks each 64 iterations, so the search
ends within milliseconds.  A stopped search returns its statistics as a
finished one does; an exception is re-raised once the trees have stopped.
"""
from cython.parallel cimport prange
from array import array
from libc.math cimport log, sqrt
from libc.stdint cimport uint64_t, int32_t, int64_t, uint8_t
from libc.stdlib cimport malloc, free, calloc
from posix.unistd cimport usleep
cimport openmp
from libc.string cimport memcpy, memset

from bits cimport popcount, lowest_bit
from rng cimport Rng, rng_seed, _splitmix
from walker cimport Graph, graph_load, graph_scratch, graph_free
from pool cimport Pool, pool_clear
from typegraph cimport (TypeGraph, typegraph_load, typegraph_copy, typegraph_free,
                        typegraph_free_scratch, columns_walk)
from tree cimport (Ops, Node, prior_fn, policy_fn, value_fn, STATE_WORDS, MAX_SEATS, BATCH_SLOTS, random_bit, now)
from dix cimport (DixRules, DixPlay, dix_ops, dix_load, dix_reward0, dix_policy, dix_value,
                 dix_value_point, DIX_VF)
from leafvalue cimport LeafValue, leaf_value_load, MAX_VF
from trickrules cimport TrickPlay, LayoutPlay, layout_points, C_LAYOUT
from trick cimport TrickRules, trick_ops, trick_load, layout_ops, layout_load, trick_policy
from cardfeat cimport CardPolicy, card_policy_load
from rook cimport RookRules, RookPlay, rook_ops, rook_load, rook_value0, rook_policy
from deal cimport DealRules, DealPlay, deal_ops, deal_load
from hand cimport HandRules, HandPlay, hand_ops, hand_load
from exchange cimport ExRules, ExPlay, ex_ops, ex_load
from bags cimport ExGraph, exgraph_load, exgraph_scratch, exgraph_free_scratch, exgraph_free

#: seconds between two calls of a search's ``poll`` (progress, stop, signals)
cdef double POLL_SECONDS = 0.05
#: the deepest line a tree follows (then the iteration goes on by play-out)
DEF MAX_PATH = 256
#: PUCT nodes create every child at once: a larger node pool per iteration
DEF PRIOR_NODES = 8
#: a node evaluates the learned policy afresh (for the mover's cards in the
#: world drawn) on its first POLICY_DRAWS visits, then selects with the mean
#: of those draws: the search's busy nodes, near the root, stop paying for
#: the policy once its average over the worlds is known
DEF POLICY_DRAWS = 32

# ---- batch means ---------------------------------------------------------------

cdef struct Batches:
    int32_t count[64 * BATCH_SLOTS]
    double total[64 * BATCH_SLOTS]
    int32_t used[64]           # slots in use per root action
    int64_t size[64]           # rewards a full batch holds per root action



cdef inline void batch_add(Batches* B, int a, double x) noexcept nogil:
    """Record root action ``a``'s reward ``x``: into its open batch, or a new
    one when that is full; when all ``BATCH_SLOTS`` are full, adjacent pairs
    merge (2i and 2i+1 into i) and the batch size doubles first."""
    cdef int k = B.used[a], i
    cdef int base = a * BATCH_SLOTS
    if k == 0 or B.count[base + k - 1] >= B.size[a]:
        if k == 0:
            B.size[a] = 1
        elif k == BATCH_SLOTS:
            for i in range(BATCH_SLOTS // 2):
                B.count[base + i] = B.count[base + 2 * i] + B.count[base + 2 * i + 1]
                B.total[base + i] = B.total[base + 2 * i] + B.total[base + 2 * i + 1]
            k = BATCH_SLOTS // 2
            B.size[a] *= 2
        B.count[base + k] = 0
        B.total[base + k] = 0.0
        k += 1
        B.used[a] = k
    B.count[base + k - 1] += 1
    B.total[base + k - 1] += x


# ---- the tree ------------------------------------------------------------------

cdef inline int new_child(Node* nodes, int* n_nodes, int parent, int a, int mover,
                          int avail) noexcept nogil:
    cdef int ch = n_nodes[0]
    n_nodes[0] += 1
    nodes[ch].first_child = -1
    nodes[ch].next_sibling = nodes[parent].first_child
    nodes[ch].action = a
    nodes[ch].mover = mover
    nodes[ch].visits = 0
    nodes[ch].avail = avail
    nodes[ch].total = 0.0
    nodes[ch].tried = 0
    nodes[ch].psum = 0.0
    nodes[ch].pn = 0
    nodes[parent].first_child = ch
    nodes[parent].tried |= (<uint64_t>1) << a
    return ch


cdef inline void heuristic_prior(uint64_t L, int fav, double* prior) noexcept nogil:
    """The heuristic's prior over ``L``: one half on its move ``fav`` and
    the rest split evenly (1 for a single move)."""
    cdef int k = popcount(L), a
    cdef double other = 0.5 / (k - 1) if k > 1 else 0.0
    cdef uint64_t m = L
    while m:
        a = lowest_bit(m)
        m &= m - 1
        prior[a] = 1.0 if k == 1 else (0.5 if a == fav else other)


cdef inline int select_puct(Node* nodes, int* n_nodes, int max_nodes, int node, uint64_t L,
                            int mover, const double* prior, double c, int mode) noexcept nogil:
    """PUCT at ``node`` (AlphaZero's rule, availability counts for ISMCTS):
    ``Q(a) + c P(a) sqrt(avail(a)) / (1 + visits(a))``, ``P(a)``: with
    ``mode`` 0, ``prior[a]`` (the heuristic's, ``heuristic_prior``); 1, the
    learned policy's ``prior[a]`` in this world, also summed into the
    child (``psum``, ``pn``); 2, the mean of those sums (``1 / k`` for a
    move the sums never saw legal).  A move never tried is valued at the
    mean of its tried siblings (0 when none was).  Every legal move gets
    its child here (and its availability counted); ties go to the lower
    action.  Returns the child, -1 when the node pool cannot hold the new
    children."""
    cdef uint64_t untried = L & ~nodes[node].tried, m
    cdef int ch, best = -1, a, k = popcount(L)
    cdef double tot = 0.0, fpu, p, q, score, best_score = -1e300
    cdef long vis = 0
    if untried:
        if n_nodes[0] + popcount(untried) > max_nodes:
            return -1
        m = untried
        while m:
            new_child(nodes, n_nodes, node, lowest_bit(m), mover, 0)
            m &= m - 1
    ch = nodes[node].first_child
    while ch >= 0:
        if (L >> nodes[ch].action) & 1:
            nodes[ch].avail += 1
            if nodes[ch].visits:
                tot += nodes[ch].total
                vis += nodes[ch].visits
        ch = nodes[ch].next_sibling
    fpu = tot / vis if vis else 0.0
    ch = nodes[node].first_child
    while ch >= 0:
        a = nodes[ch].action
        if (L >> a) & 1:
            if mode == 0:
                p = prior[a]
            elif mode == 1:
                p = prior[a]
                nodes[ch].psum += <float>p
                nodes[ch].pn += 1
            else:
                p = nodes[ch].psum / nodes[ch].pn if nodes[ch].pn else 1.0 / k
            q = nodes[ch].total / nodes[ch].visits if nodes[ch].visits else fpu
            score = q + c * p * sqrt(<double>nodes[ch].avail) / (1 + nodes[ch].visits)
            if score > best_score or (score == best_score and a < nodes[best].action):
                best_score = score
                best = ch
        ch = nodes[ch].next_sibling
    return best


cdef inline void play_out(const Ops* ops, void* P, const void* R, double* rew,
                          Rng* r) noexcept nogil:
    """Play ``P`` out by the play-out policy and leave every seat's reward
    in ``rew``: the deal's result, or, with a leaf value (``ops.value``),
    its estimate where the value takes over (``leaf=value``)."""
    cdef int moves = 0
    while not ops.over(P, R):
        if ops.value != NULL and ops.value(P, R, moves, rew):
            return
        ops.apply(P, R, ops.playout(P, R, ops.legal(P, R), r))
        moves += 1
    ops.rewards(P, R, rew)


cdef long grow_tree(Node* nodes, int max_nodes, const Ops* ops, const void* base,
                    const void* R, void* sampler, uint64_t seed, long iterations,
                    double deadline, double c, volatile int* stop, volatile long* done,
                    double* root_sq, const double* offsets, Batches* B) noexcept nogil:
    """Run one tree's iterations (see the module docstring); returns the
    number done.  ``sampler`` is this thread's own determinization data;
    ``stop[0]`` set ends the search; ``done[0]`` counts the iterations so
    far (for the monitor); ``root_sq[a]`` sums the squared rewards of root
    action ``a`` (for the interval of its mean), ``B`` their batch means;
    ``offsets`` (or NULL) the root offsets."""
    cdef Rng r
    cdef uint64_t P[STATE_WORDS]
    cdef double rew[MAX_SEATS]
    cdef int32_t path[MAX_PATH]
    cdef int path_len, i, node, ch, best, a, mover, fav, mode, n_nodes = 1
    cdef uint64_t L, untried
    cdef double score, best_score, x
    cdef double rsq[64]             # squared root rewards, local: no aliasing in the loop
    cdef double prior[64]           # the PUCT prior of the node at hand
    cdef long it = 0
    memset(rsq, 0, sizeof(rsq))
    rng_seed(&r, seed)
    nodes[0].first_child = -1
    nodes[0].next_sibling = -1
    nodes[0].visits = 0
    nodes[0].tried = 0
    while it < iterations:
        if (it & 63) == 0 and it > 0:
            done[0] = it
            if stop[0] or (deadline > 0 and now() >= deadline):
                break
        memcpy(P, base, ops.state_size)
        ops.determinize(P, R, sampler, &r)
        node = 0
        path_len = 0
        while not ops.over(P, R) and path_len < MAX_PATH:
            L = ops.reduce(P, R, ops.legal(P, R), node == 0)
            mover = ops.mover(P)
            fav = ops.prior(P, R, L) if ops.prior != NULL else -1
            mode = 0
            if fav >= 0:
                heuristic_prior(L, fav, prior)
            elif ops.policy != NULL:
                # the learned prior: PUCT too (POLICY_DRAWS)
                if nodes[node].visits >= POLICY_DRAWS:
                    fav = 0
                    mode = 2
                elif ops.policy(P, R, L, prior):
                    fav = 0
                    mode = 1
            if fav >= 0:
                best = select_puct(nodes, &n_nodes, max_nodes, node, L, mover, prior, c, mode)
                if best < 0:          # node pool full: finish by play-out
                    break
                ops.apply(P, R, nodes[best].action)
                path[path_len] = best
                path_len += 1
                if nodes[best].visits == 0:       # expansion
                    break
                node = best
                continue
            best = -1
            best_score = -1e300
            ch = nodes[node].first_child
            while ch >= 0:
                if (L >> nodes[ch].action) & 1:
                    nodes[ch].avail += 1
                    score = nodes[ch].total / nodes[ch].visits + \
                        c * sqrt(log(<double>nodes[ch].avail) / nodes[ch].visits)
                    if score > best_score:
                        best_score = score
                        best = ch
                ch = nodes[ch].next_sibling
            untried = L & ~nodes[node].tried
            if untried and n_nodes < max_nodes:
                a = random_bit(untried, &r)
                ch = new_child(nodes, &n_nodes, node, a, mover, 1)
                ops.apply(P, R, a)
                path[path_len] = ch
                path_len += 1
                break
            if best < 0:          # node pool full: finish by play-out
                break
            ops.apply(P, R, nodes[best].action)
            path[path_len] = best
            path_len += 1
            node = best
        play_out(ops, P, R, rew, &r)
        nodes[0].visits += 1
        for i in range(1, path_len):
            nodes[path[i]].visits += 1
            nodes[path[i]].total += rew[nodes[path[i]].mover]
        if path_len:
            a = nodes[path[0]].action
            x = rew[nodes[path[0]].mover]
            if offsets != NULL:
                x += offsets[a]
            nodes[path[0]].visits += 1
            nodes[path[0]].total += x
            rsq[a] += x * x
            batch_add(B, a, x)
        it += 1
    done[0] = it
    memcpy(root_sq, rsq, sizeof(rsq))
    return it


cdef long grow_flat(Node* nodes, const Ops* ops, const void* base, const void* R,
                    void* sampler, uint64_t seed, long iterations, double deadline,
                    volatile int* stop, volatile long* done, double* root_sq,
                    const double* offsets, Batches* B) noexcept nogil:
    """A flat search (see the module docstring): per determinization every
    root move in order, each followed by a play-out; a block of moves is
    never cut short, so every move gets the same worlds.  The root's
    children hold the statistics, as a tree's do."""
    cdef Rng r
    cdef uint64_t W[STATE_WORDS]
    cdef uint64_t P[STATE_WORDS]
    cdef double rew[MAX_SEATS]
    cdef int n_nodes = 1, a, ch, mover
    cdef int child[64]
    cdef uint64_t L, m
    cdef double x
    cdef long it = 0
    cdef double rsq[64]
    memset(rsq, 0, sizeof(rsq))
    rng_seed(&r, seed)
    nodes[0].first_child = -1
    nodes[0].next_sibling = -1
    nodes[0].visits = 0
    nodes[0].tried = 0
    while it < iterations:
        done[0] = it
        if it > 0 and (stop[0] or (deadline > 0 and now() >= deadline)):
            break
        memcpy(W, base, ops.state_size)
        ops.determinize(W, R, sampler, &r)
        L = ops.reduce(W, R, ops.legal(W, R), 1)
        mover = ops.mover(W)
        m = L
        while m:
            a = lowest_bit(m)
            m &= m - 1
            if not (nodes[0].tried >> a) & 1:
                child[a] = new_child(nodes, &n_nodes, 0, a, mover, 0)
            ch = child[a]
            memcpy(P, W, ops.state_size)
            ops.apply(P, R, a)
            play_out(ops, P, R, rew, &r)
            x = rew[mover]
            if offsets != NULL:
                x += offsets[a]
            nodes[0].visits += 1
            nodes[ch].visits += 1
            nodes[ch].avail += 1
            nodes[ch].total += x
            rsq[a] += x * x
            batch_add(B, a, x)
            it += 1
    done[0] = it
    memcpy(root_sq, rsq, sizeof(rsq))
    return it


cdef object root_stats(Node** trees, int T, int max_nodes, const double* sq,
                       list per_tree=None, Batches* batches=NULL, list per_batches=None):
    """``(visits, means, squares)`` of the root actions summed over the
    trees (``sq``: T rows of 64 sums of squared rewards, or NULL); with
    ``per_tree``, each tree's ``{action: (visits, mean)}`` is appended to
    it (the spread between independent trees); with ``batches``, each
    tree's ``{action: [(count, sum), ...]}`` to ``per_batches``.  Safe while
    the trees grow: child indices are bounds-checked and each list walk is
    capped at 64 children."""
    cdef int t, ch, k, a, j
    cdef Batches* B
    visits, totals, squares = {}, {}, {}
    for t in range(T):
        ch = trees[t][0].first_child
        k = 0
        mine = {}
        while 0 < ch <= max_nodes and k < 64:
            a = trees[t][ch].action
            if 0 <= a < 64:
                visits[a] = visits.get(a, 0) + trees[t][ch].visits
                totals[a] = totals.get(a, 0.0) + trees[t][ch].total
                if sq != NULL:
                    squares[a] = squares.get(a, 0.0) + sq[t * 64 + a]
                if per_tree is not None and trees[t][ch].visits > 0:
                    mine[a] = (trees[t][ch].visits, trees[t][ch].total / trees[t][ch].visits)
            ch = trees[t][ch].next_sibling
            k += 1
        if per_tree is not None:
            per_tree.append(mine)
        if batches != NULL and per_batches is not None:
            B = &batches[t]
            per_batches.append({a: [(B.count[a * BATCH_SLOTS + j], B.total[a * BATCH_SLOTS + j])
                                    for j in range(B.used[a])]
                                for a in mine})
    means = {a: totals[a] / visits[a] for a in visits if visits[a] > 0}
    return visits, means, squares


cdef int call_poll(object poll, Node** trees, int T, int max_nodes, long* done,
                   int* stop) except -1:
    """The monitor's call of ``poll`` (with the GIL): sets ``stop`` on a
    true answer or an exception (which is passed on)."""
    cdef int t
    cdef long total = 0
    for t in range(T):
        total += (<volatile long*>done)[t]
    try:
        visits, means, _ = root_stats(trees, T, max_nodes, NULL)
        if poll(total, visits, means):
            (<volatile int*>stop)[0] = 1
    except BaseException:
        (<volatile int*>stop)[0] = 1
        raise
    return 0


cdef int monitor(object poll, Node** trees, int T, int max_nodes, long* progress,
                 int* stop, int* finished) except -1 nogil:
    """Thread 0's loop while the trees grow: ``poll`` every POLL_SECONDS
    until every tree has finished."""
    cdef int t, all_done
    cdef double next_poll = now() + POLL_SECONDS
    while True:
        all_done = 1
        for t in range(T):
            if not (<volatile int*>finished)[t]:
                all_done = 0
        if all_done:
            return 0
        usleep(1000)
        if now() >= next_poll and not (<volatile int*>stop)[0]:
            next_poll = now() + POLL_SECONDS
            with gil:
                call_poll(poll, trees, T, max_nodes, progress, stop)


cdef object run_trees(const Ops* ops, const void* base, const void* R, void** samplers,
                      int T, int W, long iterations, double seconds, uint64_t seed, double c,
                      object poll, int flat, const double* offsets):
    """Grow ``T`` trees on ``W`` worker threads (``samplers[t]``: tree t's
    own data) while the calling thread monitors them (``poll``, see the
    module docstring); sum their root statistics: ``(visits, means,
    iterations, squares, per_tree, batches)``, ``squares[a]`` the sum of the
    squared rewards of action ``a``'s iterations, ``per_tree`` each tree's
    ``{action: (visits, mean)}``, ``batches`` each tree's batch means
    (``batch_add``).  ``flat``: flat searches (``grow_flat``).

    Worker ``w`` grows trees ``w, w + W, ...`` one after the other.  Each
    tree's seed and iterations depend on ``T`` and ``seed`` only, so with an
    iteration limit the answer is the same for any ``W`` (any machine); a
    time limit gives a worker's ``j``-th of ``m`` trees the deadline
    ``start + (j + 1) * seconds / m``, each tree its share of the time."""
    cdef int t, w, j, m
    cdef long per = iterations // T, extra = iterations % T
    cdef double start = now()
    cdef double deadline = start + seconds if seconds > 0 else 0.0
    # at most 50M nodes (2 GB) over all the trees of a search (pages are
    # touched only as the trees grow); PUCT nodes make all their children
    cdef long want = 66 if flat else \
        per * (PRIOR_NODES if ops.prior != NULL or ops.policy != NULL else 1) + 2
    cdef int max_nodes = <int>min(want, 50_000_000 // T)
    cdef Node** trees = <Node**>malloc(T * sizeof(Node*))
    cdef long* done = <long*>malloc(T * sizeof(long))
    cdef uint64_t* seeds = <uint64_t*>malloc(T * sizeof(uint64_t))
    cdef long* progress = <long*>calloc(T, sizeof(long))
    cdef double* sq = <double*>calloc(T * 64, sizeof(double))
    cdef Batches* batches = <Batches*>calloc(T, sizeof(Batches))
    cdef int* stop = <int*>calloc(1, sizeof(int))
    cdef int* finished = <int*>calloc(T, sizeof(int))
    cdef int monitored = poll is not None
    cdef double tree_deadline
    cdef uint64_t x = seed
    if not trees or not done or not seeds or not progress or not sq or not stop or \
            not finished or not batches:
        free(trees); free(done); free(seeds); free(progress); free(sq); free(stop)
        free(finished); free(batches)
        raise MemoryError()
    for t in range(T):
        trees[t] = <Node*>malloc((max_nodes + 1) * sizeof(Node))
        seeds[t] = _splitmix(&x)
    try:
        for t in range(T):
            if not trees[t]:
                raise MemoryError()
        for t in range(T):
            trees[t][0].first_child = -1
        # iteration 0 is the monitor (the master thread: it runs Python, so
        # it receives Ctrl-C); iterations 1..T grow the trees.  A team too
        # small to hold both (OMP_NUM_THREADS=1...) runs without a monitor.
        for w in prange(W + monitored, nogil=True, num_threads=W + monitored,
                        schedule="static", chunksize=1):
            if w >= monitored:
                m = (T - (w - monitored) + W - 1) // W       # this worker's trees
                j = 0
                t = w - monitored
                while t < T:
                    if seconds > 0:
                        tree_deadline = start + (j + 1) * seconds / m
                    else:
                        tree_deadline = 0.0
                    if flat:
                        done[t] = grow_flat(
                            trees[t], ops, base, R, samplers[t], seeds[t],
                            per + (1 if t < extra else 0), tree_deadline, stop, &progress[t],
                            &sq[t * 64], offsets, &batches[t])
                    else:
                        done[t] = grow_tree(
                            trees[t], max_nodes, ops, base, R, samplers[t], seeds[t],
                            per + (1 if t < extra else 0), tree_deadline, c, stop,
                            &progress[t], &sq[t * 64], offsets, &batches[t])
                    (<volatile int*>finished)[t] = 1
                    t = t + W
                    j = j + 1
            elif openmp.omp_get_num_threads() > W:
                monitor(poll, trees, T, max_nodes, progress, stop, finished)
        total_it = 0
        for t in range(T):
            total_it += done[t]
        per_tree, per_batches = [], []
        visits, means, squares = root_stats(trees, T, max_nodes, sq, per_tree, batches,
                                            per_batches)
        return visits, means, total_it, squares, per_tree, per_batches
    finally:
        for t in range(T):
            free(trees[t])
        free(trees); free(done); free(seeds); free(progress); free(sq); free(stop)
        free(finished); free(batches)


# ---- the samplers ------------------------------------------------------------------
# How a search keeps and copies its view's determinization data: one kind of
# graph per row (walker.pxd: dix's interval graph; typegraph.pxd: holder and
# column graphs; bags.pxd: dix-exchange's bags).  The search owns one,
# loaded from the compiled sampler; each tree gets a copy with its own
# scratch (``copy``, given back with ``drop``); ``release`` frees the
# search's own.

ctypedef int (*graph_load_fn)(void* g, object compiled) except -1
ctypedef void* (*graph_copy_fn)(const void* g) except NULL
ctypedef void (*graph_drop_fn)(void* g) noexcept
ctypedef Pool* (*graph_pool_fn)(void* g) noexcept


cdef struct SamplerKind:
    size_t size                # the graph struct (zeroed: no arrays, no pool)
    graph_load_fn load
    graph_copy_fn copy
    graph_drop_fn drop         # a copy: its scratch and the struct
    graph_drop_fn release      # the search's own: every array (not the struct)
    graph_pool_fn pool         # the weighed pool its walks read (set_pool)


cdef int interval_load(void* g, object compiled) except -1:
    return graph_load(<Graph*>g, compiled)


cdef void interval_drop(void* s) noexcept:
    cdef Graph* g = <Graph*>s
    if g != NULL:
        free(g.pool)
        free(g.pool_len)
        free(g)


cdef void* interval_copy(const void* src) except NULL:
    cdef Graph* g = <Graph*>malloc(sizeof(Graph))
    if not g:
        raise MemoryError()
    g[0] = (<const Graph*>src)[0]
    g.pool = NULL
    g.pool_len = NULL
    try:
        graph_scratch(g)
    except MemoryError:
        interval_drop(g)
        raise
    return g


cdef void interval_release(void* g) noexcept:
    graph_free(<Graph*>g)


cdef Pool* interval_pool(void* g) noexcept:
    return &(<Graph*>g).worlds


cdef int types_load(void* g, object compiled) except -1:
    return typegraph_load(<TypeGraph*>g, compiled)


cdef void* types_copy(const void* src) except NULL:
    cdef TypeGraph* g = <TypeGraph*>malloc(sizeof(TypeGraph))
    if not g:
        raise MemoryError()
    g.scratch = NULL
    g.left = NULL
    try:
        typegraph_copy(g, <const TypeGraph*>src)
    except MemoryError:
        free(g)
        raise
    return g


cdef void types_drop(void* s) noexcept:
    cdef TypeGraph* g = <TypeGraph*>s
    if g != NULL:
        typegraph_free_scratch(g)
        free(g)


cdef void types_release(void* g) noexcept:
    typegraph_free(<TypeGraph*>g)


cdef Pool* types_pool(void* g) noexcept:
    return &(<TypeGraph*>g).worlds


cdef int bags_load(void* g, object compiled) except -1:
    return exgraph_load(<ExGraph*>g, compiled)


cdef void* bags_copy(const void* src) except NULL:
    cdef ExGraph* g = <ExGraph*>malloc(sizeof(ExGraph))
    if not g:
        raise MemoryError()
    g[0] = (<const ExGraph*>src)[0]
    g.bag = NULL
    g.bag_len = NULL
    try:
        exgraph_scratch(g)
    except MemoryError:
        free(g)
        raise
    return g


cdef void bags_drop(void* s) noexcept:
    cdef ExGraph* g = <ExGraph*>s
    if g != NULL:
        exgraph_free_scratch(g)
        free(g)


cdef void bags_release(void* g) noexcept:
    exgraph_free(<ExGraph*>g)


cdef Pool* bags_pool(void* g) noexcept:
    return &(<ExGraph*>g).worlds


cdef SamplerKind INTERVALS = SamplerKind(
    size=sizeof(Graph), load=interval_load, copy=interval_copy, drop=interval_drop,
    release=interval_release, pool=interval_pool)
cdef SamplerKind TYPES = SamplerKind(
    size=sizeof(TypeGraph), load=types_load, copy=types_copy, drop=types_drop,
    release=types_release, pool=types_pool)
cdef SamplerKind BAGS = SamplerKind(
    size=sizeof(ExGraph), load=bags_load, copy=bags_copy, drop=bags_drop,
    release=bags_release, pool=bags_pool)


# ---- the games: one row each ---------------------------------------------------
# A game's row: its ``Ops`` (the kernel), the size of its rules, its
# sampler's kind, and what the Python side needs: ``load`` fills the rules
# and the base state from its builder's dicts (each game's kernel.py, see
# solver/search/native.py); ``seats`` the hands ``moves`` sets; ``places``
# the masks a pool's world needs (``set_pool``); ``world`` and ``outcome``
# what ``simulate`` returns (the world drawn, then the result once the
# play-out ended); ``note`` (or NULL) what it records after each move.
# A new game adds its header and a row here, not a class.

ctypedef int (*game_load_fn)(void* R, void* P, object compiled, dict rules,
                             dict state) except -1
ctypedef int (*seats_fn)(const void* R) noexcept
ctypedef int (*places_fn)(const void* R, const void* g) noexcept
ctypedef object (*world_fn)(const void* P, const void* R, const SamplerKind* kind,
                            const void* g, uint64_t seed)
ctypedef object (*outcome_fn)(const void* P, const void* R, object world, list played)
ctypedef int (*note_fn)(const void* P, list notes) except -1
ctypedef CardPolicy* (*card_policy_fn)(void* R) noexcept
ctypedef LeafValue* (*leaf_value_fn)(void* R) noexcept
ctypedef int (*value_point_fn)(const void* P, const void* R, int seat, double* f,
                               double* partial) noexcept nogil


cdef struct GameRow:
    Ops ops
    size_t rules_size
    const SamplerKind* sampler
    game_load_fn load
    seats_fn seats
    places_fn places
    world_fn world
    outcome_fn outcome
    note_fn note
    policy_fn policy           # the learned prior's ``Ops.policy`` (NULL: none)
    card_policy_fn card_policy # where the rules keep the learned card policy
    value_fn value             # the leaf value's ``Ops.value`` (NULL: none)
    value_point_fn value_point # a seat's value features at a state (see dix.pxd)
    leaf_value_fn leaf_value   # where the rules keep the leaf value (NULL: none)
    int value_features         # the number of value features


cdef LeafValue* dix_leaf_value(void* R) noexcept:
    return &(<DixRules*>R).lv


cdef CardPolicy* no_card_policy(void* R) noexcept:
    return NULL


cdef CardPolicy* dix_card_policy(void* R) noexcept:
    return &(<DixRules*>R).cp


cdef CardPolicy* trick_card_policy(void* R) noexcept:
    return &(<TrickRules*>R).cp


cdef CardPolicy* rook_card_policy(void* R) noexcept:
    return &(<RookRules*>R).cp


cdef int four_seats(const void* R) noexcept:
    return 4


cdef int slot_places(const void* R, const void* g) noexcept:
    return (<const Graph*>g).n_slots


cdef int holder_places(const void* R, const void* g) noexcept:
    return (<const TypeGraph*>g).n_holders


cdef object hands_world(const void* P, const void* R, const SamplerKind* kind, const void* g,
                        uint64_t seed):
    """The four hands after the determinization (every 4-seat compact state
    starts with them)."""
    cdef const uint64_t* hands = <const uint64_t*>P
    return [hands[i] for i in range(4)]


cdef object columns_world(int n_holders, const SamplerKind* kind, const void* g,
                          uint64_t seed):
    """dixie-rook: the same draw again, to report every holder's cards (the
    determinization keeps only the discards' count)."""
    cdef Rng r
    cdef uint64_t got[8]
    cdef int h
    cdef void* s = kind.copy(g)
    try:
        for h in range(8):
            got[h] = 0
        rng_seed(&r, seed)
        columns_walk(<TypeGraph*>s, &r, got)
        return [got[h] for h in range(n_holders)]
    finally:
        kind.drop(s)


# dix card play (dix.pxd), built by ``solver.games.dix.kernel.native_dix_search``.
# ``simulate``: ``(opponent hand mask, stock list, cards played, won, tens,
# last_winner, reward of seat 0)``.

cdef int dix_load_row(void* R, void* P, object compiled, dict rules, dict state) except -1:
    return dix_load(<DixRules*>R, <DixPlay*>P, compiled, rules, state)


cdef int dix_seats(const void* R) noexcept:
    return 2


cdef object dix_world(const void* Pv, const void* Rv, const SamplerKind* kind, const void* g,
                      uint64_t seed):
    cdef const DixPlay* P = <const DixPlay*>Pv
    cdef const DixRules* R = <const DixRules*>Rv
    return (P.hands[1 - R.seat], [P.stock[i] for i in range(R.stock_len)])


cdef object dix_outcome(const void* Pv, const void* Rv, object world, list played):
    cdef const DixPlay* P = <const DixPlay*>Pv
    return (world[0], world[1], played, [P.won[0], P.won[1]], [P.tens[0], P.tens[1]],
            P.last_winner, dix_reward0(P))


# A trix / tricks trick contract (trick.pxd; 4 seats, no trumps), built by
# ``solver.games.contract_match.kernel.native_trick_search``.  ``simulate``:
# ``(hands after the determinization, cards played, final scores)``.

cdef int trick_load_row(void* R, void* P, object compiled, dict rules, dict state) except -1:
    return trick_load(<TrickRules*>R, <TrickPlay*>P, rules, state)


cdef object trick_outcome(const void* Pv, const void* Rv, object world, list played):
    cdef const TrickPlay* P = <const TrickPlay*>Pv
    return world, played, [P.score[i] for i in range(4)]


# The layout (trix / tricks; trick.pxd; the pass is the action 63), built by
# ``solver.games.contract_match.kernel.native_layout_search``.  ``simulate``:
# ``(hands after the determinization, actions (63 = pass), places)``.

cdef int layout_load_row(void* R, void* P, object compiled, dict rules, dict state) except -1:
    return layout_load(<TrickRules*>R, <LayoutPlay*>P, rules, state)


cdef object layout_outcome(const void* Pv, const void* Rv, object world, list played):
    cdef const LayoutPlay* P = <const LayoutPlay*>Pv
    return world, played, [P.place[i] for i in range(4)]


# dixie-rook card play (rook.pxd; 4 or 6 seats), built by
# ``solver.games.dixie_rook.kernel.native_rook_search`` from a seat view's
# world sampler; rewards: team 0's hand score difference (``rook_value0``)
# over ``scale``, negated for team 1 (the Python twin's ``round_returns``).
# ``simulate``: ``(cards per holder after the determinization (masks), cards
# played, tricks per team, count per team, team 0's hand score difference)``.

cdef int rook_load_row(void* R, void* P, object compiled, dict rules, dict state) except -1:
    return rook_load(<RookRules*>R, <RookPlay*>P, compiled, rules, state)


cdef int rook_seats(const void* R) noexcept:
    return (<const RookRules*>R).nseats


cdef object rook_world(const void* Pv, const void* Rv, const SamplerKind* kind, const void* g,
                       uint64_t seed):
    return columns_world((<const RookRules*>Rv).n_holders, kind, g, seed)


cdef object rook_outcome(const void* Pv, const void* Rv, object world, list played):
    cdef const RookPlay* P = <const RookPlay*>Pv
    return (world, played, [P.won[0], P.won[1]], [P.count[0], P.count[1]], rook_value0(P))


# A whole trix / tricks deal from a decision before the play (deal.pxd): the
# contract choice (a flat search, ``rules["flat"]``, with root offsets),
# doubling, redeal claims.  Built by
# ``solver.games.contract_match.kernel.native_contract_search``.  ``simulate``:
# ``((hands after the determinization, [hands of each redeal]), moves
# (bits), each seat's points this deal, the contract)``.

cdef int deal_load_row(void* R, void* P, object compiled, dict rules, dict state) except -1:
    return deal_load(<DealRules*>R, <DealPlay*>P, rules, state)


cdef int deal_note(const void* Pv, list notes) except -1:
    cdef const DealPlay* P = <const DealPlay*>Pv
    if P.redeals > len(notes):
        notes.append([P.hands[i] for i in range(4)])
    return 0


cdef object deal_outcome(const void* Pv, const void* Rv, object world, list played):
    cdef const DealPlay* P = <const DealPlay*>Pv
    cdef int32_t pts[4]
    if isinstance(world, tuple):
        hands, redeals = world
    else:
        hands, redeals = world, []
    if P.contract != C_LAYOUT:
        points = [P.tp.score[i] for i in range(4)]
    else:
        layout_points(&P.lp, pts)
        points = [pts[i] for i in range(4)]
    return (hands, redeals), played, points, P.contract


# A whole dixie-rook hand from a decision before the play (hand.pxd): bids,
# the nest discards, trumps.  Built by
# ``solver.games.dixie_rook.kernel.native_rook_search``.  ``simulate``:
# ``(cards per holder after the determinization (masks), moves (bits), the
# bid winner, team 0's hand score difference, tricks per team, count per
# team)``.

cdef int hand_load_row(void* R, void* P, object compiled, dict rules, dict state) except -1:
    return hand_load(<HandRules*>R, <HandPlay*>P, compiled, rules, state)


cdef int hand_seats(const void* R) noexcept:
    return (<const HandRules*>R).rr.nseats


cdef object hand_world(const void* Pv, const void* Rv, const SamplerKind* kind, const void* g,
                       uint64_t seed):
    return columns_world((<const HandRules*>Rv).rr.n_holders, kind, g, seed)


cdef object hand_outcome(const void* Pv, const void* Rv, object world, list played):
    cdef const HandPlay* P = <const HandPlay*>Pv
    value = rook_value0(&P.play) if P.winner >= 0 else 0.0
    return (world, played, P.winner, value, [P.play.won[0], P.play.won[1]],
            [P.play.count[0], P.play.count[1]])


# A dix-exchange round (exchange.pxd), built by
# ``solver.games.dix_exchange.kernel.native_exchange_search``; its pool's
# places are the view's unseen positions (the rules' ``slot_place`` and
# ``used_place``).  ``simulate``: ``(the value of each slot in the world
# drawn, moves, each seat's tokens at the end of the round)``.

cdef int ex_load_row(void* R, void* P, object compiled, dict rules, dict state) except -1:
    return ex_load(<ExRules*>R, <ExPlay*>P, rules, state)


cdef int no_seats(const void* R) noexcept:
    return 0


cdef int ex_places(const void* Rv, const void* g) noexcept:
    cdef const ExRules* R = <const ExRules*>Rv
    cdef int i, need = 0
    for i in range(R.nslots):
        need = max(need, R.slot_place[i] + 1)
    for i in range(R.nused):
        need = max(need, R.used_place[i] + 1)
    return need


cdef object ex_world(const void* Pv, const void* Rv, const SamplerKind* kind, const void* g,
                     uint64_t seed):
    cdef const ExPlay* P = <const ExPlay*>Pv
    return [P.value[i] for i in range((<const ExRules*>Rv).nslots)]


cdef object ex_outcome(const void* Pv, const void* Rv, object world, list played):
    cdef const ExPlay* P = <const ExPlay*>Pv
    return world, played, [P.tokens[i] for i in range((<const ExRules*>Rv).n)]


#: the row of each kind of search, by the name ``Search`` is built with
GAME_NAMES = ("dix", "trick", "layout", "rook", "deal", "hand", "exchange")
cdef GameRow GAMES[7]
GAMES[0] = GameRow(ops=dix_ops(), rules_size=sizeof(DixRules), sampler=&INTERVALS,
                   load=dix_load_row, seats=dix_seats, places=slot_places, world=dix_world,
                   outcome=dix_outcome, note=NULL,
                   policy=dix_policy, card_policy=dix_card_policy, value=dix_value,
                   value_point=dix_value_point, leaf_value=dix_leaf_value,
                   value_features=DIX_VF)
GAMES[1] = GameRow(ops=trick_ops(), rules_size=sizeof(TrickRules), sampler=&TYPES,
                   load=trick_load_row, seats=four_seats, places=holder_places,
                   world=hands_world, outcome=trick_outcome, note=NULL,
                   policy=trick_policy, card_policy=trick_card_policy, value=NULL,
                   value_point=NULL, leaf_value=NULL, value_features=0)
GAMES[2] = GameRow(ops=layout_ops(), rules_size=sizeof(TrickRules), sampler=&TYPES,
                   load=layout_load_row, seats=four_seats, places=holder_places,
                   world=hands_world, outcome=layout_outcome, note=NULL,
                   policy=NULL, card_policy=no_card_policy, value=NULL,
                   value_point=NULL, leaf_value=NULL, value_features=0)
GAMES[3] = GameRow(ops=rook_ops(), rules_size=sizeof(RookRules), sampler=&TYPES,
                   load=rook_load_row, seats=rook_seats, places=holder_places,
                   world=rook_world, outcome=rook_outcome, note=NULL,
                   policy=rook_policy, card_policy=rook_card_policy, value=NULL,
                   value_point=NULL, leaf_value=NULL, value_features=0)
GAMES[4] = GameRow(ops=deal_ops(), rules_size=sizeof(DealRules), sampler=&TYPES,
                   load=deal_load_row, seats=four_seats, places=holder_places,
                   world=hands_world, outcome=deal_outcome, note=deal_note,
                   policy=NULL, card_policy=no_card_policy, value=NULL,
                   value_point=NULL, leaf_value=NULL, value_features=0)
GAMES[5] = GameRow(ops=hand_ops(), rules_size=sizeof(HandRules), sampler=&TYPES,
                   load=hand_load_row, seats=hand_seats, places=holder_places,
                   world=hand_world, outcome=hand_outcome, note=NULL,
                   policy=NULL, card_policy=no_card_policy, value=NULL,
                   value_point=NULL, leaf_value=NULL, value_features=0)
GAMES[6] = GameRow(ops=ex_ops(), rules_size=sizeof(ExRules), sampler=&BAGS,
                   load=ex_load_row, seats=no_seats, places=ex_places, world=ex_world,
                   outcome=ex_outcome, note=NULL,
                   policy=NULL, card_policy=no_card_policy, value=NULL,
                   value_point=NULL, leaf_value=NULL, value_features=0)


cdef int _set_pool(Pool* p, object rows, int width, object cum, int n_places) except -1:
    """Point ``p`` at a weighed pool (solver/beliefs.py): ``rows`` (an
    ``array('Q')`` of worlds, ``width`` masks each, the walker reading the
    first ``n_places``) and ``cum`` (an ``array('d')`` of cumulative
    probabilities); an empty pool clears it.  The caller keeps both arrays
    alive while the search runs."""
    cdef const uint64_t[::1] rv
    cdef const double[::1] cv
    if rows is None or len(cum) == 0:
        pool_clear(p)
        return 0
    rv = rows
    cv = cum
    if width < n_places or rv.shape[0] != width * cv.shape[0]:
        raise ValueError(f"a pool of {cv.shape[0]} worlds needs {cv.shape[0]} rows of at "
                         f"least {n_places} masks, got {rv.shape[0]} masks of rows of {width}")
    p.n = cv.shape[0]
    p.width = width
    p.rows = &rv[0]
    p.cum = &cv[0]
    return 0


# ---- the search -----------------------------------------------------------------

cdef class Search:
    """A prepared search of one kind (``GAME_NAMES``: a row of ``GAMES``):
    its ``Ops``, its rules, the base state and the view's sampler graph,
    loaded from the builder's ``compiled`` sampler and ``rules`` and
    ``state`` dicts.  ``run`` grows the trees, ``moves`` and ``simulate``
    expose one position's moves and one play-out to the tests.  Built by
    each game's kernel.py (see ``solver.search.native``)."""

    cdef const GameRow* game
    cdef Ops ops
    cdef void* state
    cdef void* rules
    cdef void* graph
    cdef int flat
    cdef double offsets[64]
    cdef int has_offsets
    cdef prior_fn prior_saved
    cdef object pool_rows, pool_cum
    cdef readonly str kind

    def __cinit__(self, str kind, compiled, dict rules, dict state):
        if kind not in GAME_NAMES:
            raise ValueError(f"a search is one of {', '.join(GAME_NAMES)}, got {kind!r}")
        self.kind = kind
        self.game = &GAMES[GAME_NAMES.index(kind)]
        self.rules = calloc(1, self.game.rules_size)
        self.state = calloc(1, self.game.ops.state_size)
        self.graph = calloc(1, self.game.sampler.size)
        if not self.rules or not self.state or not self.graph:
            raise MemoryError()
        self.game.load(self.rules, self.state, compiled, rules, state)
        self.game.sampler.load(self.graph, compiled)
        self.ops = self.game.ops
        self.flat = rules.get("flat", 0)

    def __dealloc__(self):
        if self.graph != NULL:
            self.game.sampler.release(self.graph)
        free(self.graph)
        free(self.rules)
        free(self.state)

    def set_pool(self, rows, int width, cum):
        """Determinize from a weighed pool of worlds (``solver.beliefs``: the
        rows the beliefs weighed, a mask a place of the view's sampler:
        dix, one bit a slot in the graph's visit order; the 4-seat games
        and dixie-rook, a mask a holder in the graph's holder order, then
        any places the walk does not read; dix-exchange, one bit a place,
        each unseen position of the view's world model a place) instead of
        uniform walks; ``set_pool(None, 0, [])`` goes back to the walks."""
        _set_pool(self.game.sampler.pool(self.graph), rows, width, cum,
                  self.game.places(self.rules, self.graph))
        self.pool_rows, self.pool_cum = rows, cum

    def set_offsets(self, offsets):
        """Root offsets (``{action bit: offset in reward units}``; see the
        module docstring)."""
        cdef int a
        for a in range(64):
            self.offsets[a] = 0.0
        for a, v in offsets.items():
            if not 0 <= a < 64:
                raise ValueError(f"an action bit is 0..63, got {a}")
            self.offsets[a] = v
        self.has_offsets = 1

    def set_prior(self, bint on):
        """Whether the decisions select by PUCT with the game's heuristic
        (the default where the game gives one) or by UCB1 (measurements)."""
        if self.prior_saved == NULL:
            self.prior_saved = self.ops.prior
        self.ops.prior = self.prior_saved if on else NULL

    def set_policy(self, dict spec, bint prior=True, int playout=0):
        """Load a learned card policy (``solver.search.learned.kernel_spec``'s
        dict) and use it as the PUCT prior of every card node (``prior``)
        and to draw the play-outs' cards (``playout`` 1: every card; 2: the
        leads, a follower keeping the game's greedy rule; 0: none); returns
        False, and changes nothing, for a kind of search that has no card
        policy."""
        cdef CardPolicy* C = self.game.card_policy(self.rules)
        if C == NULL or self.game.policy == NULL:
            return False
        card_policy_load(C, dict(spec, playout=int(playout)))
        self.ops.policy = self.game.policy if prior else NULL
        return True

    def set_value(self, spec):
        """Load a learned leaf value (``solver.search.value.kernel_value``'s
        dict) that the play-outs read after its ``cut`` tricks instead of
        playing to the end (``leaf=value``), or drop it (``None``); returns
        False, and changes nothing, for a kind of search that has none."""
        cdef LeafValue* V
        if self.game.leaf_value == NULL or self.game.value == NULL:
            return False
        V = self.game.leaf_value(self.rules)
        if spec is None:
            V.loaded = 0
            self.ops.value = NULL
            return True
        leaf_value_load(V, spec, self.game.value_features)
        self.ops.value = self.game.value
        return True

    def value_point(self, hands, int seat=0):
        """``(phase, features, partial)`` of ``seat`` with every seat's
        ``hands`` (card masks) in place of a determinization, where the
        value is read (``phase`` -1 elsewhere), for the twin's test."""
        cdef uint64_t P[STATE_WORDS]
        cdef double f[MAX_VF]
        cdef double partial[MAX_SEATS]
        cdef int i, phase
        if self.game.value_point == NULL:
            return -1, [], []
        memcpy(P, self.state, self.ops.state_size)
        for i in range(min(len(hands), self.game.seats(self.rules))):
            P[i] = hands[i]
        phase = self.game.value_point(P, self.rules, seat, f, partial)
        if phase < 0:
            return -1, [], []
        return (phase, [f[i] for i in range(self.game.value_features)],
                [partial[i] for i in range(self.game.seats(self.rules))])

    def value_at(self, hands):
        """Every seat's reward as the loaded leaf value estimates it with
        every seat's ``hands`` (card masks) in place of a determinization,
        where a play-out past its cut would read it; None elsewhere or with
        no value loaded (for the twin's test)."""
        cdef uint64_t P[STATE_WORDS]
        cdef double out[MAX_SEATS]
        cdef int i
        if self.ops.value == NULL:
            return None
        memcpy(P, self.state, self.ops.state_size)
        for i in range(min(len(hands), self.game.seats(self.rules))):
            P[i] = hands[i]
        if not self.ops.value(P, self.rules, 1 << 20, out):
            return None
        return [out[i] for i in range(self.game.seats(self.rules))]

    def value_samples(self, long playouts, uint64_t seed, int seat=0):
        """Training rows for the leaf value: ``playouts`` determinizations
        each played out by the search's play-out policy, a row at every
        state where the value is read: ``(features, phases, targets)``, the
        features an ``array('d')`` of ``value_features`` a row, the target
        ``seat``'s reward at the end minus its reward so far."""
        cdef Rng r
        cdef uint64_t P[STATE_WORDS]
        cdef double f[MAX_VF]
        cdef double partial[MAX_SEATS]
        cdef double rew[MAX_SEATS]
        cdef double start[64]
        cdef int phases_at[64]
        cdef double feats[64 * MAX_VF]
        cdef int n, k, j, phase, nf = self.game.value_features
        cdef long p
        cdef void* sampler
        if self.game.value_point == NULL:
            raise ValueError(f"a {self.kind} search has no leaf value")
        X, ph, y = array("d"), array("i"), array("d")
        sampler = self.game.sampler.copy(self.graph)
        try:
            rng_seed(&r, seed)
            for p in range(playouts):
                memcpy(P, self.state, self.ops.state_size)
                self.ops.determinize(P, self.rules, sampler, &r)
                n = 0
                while not self.ops.over(P, self.rules):
                    if n < 64:
                        phase = self.game.value_point(P, self.rules, seat, f, partial)
                        if phase >= 0:
                            phases_at[n] = phase
                            start[n] = partial[seat]
                            for k in range(nf):
                                feats[n * MAX_VF + k] = f[k]
                            n += 1
                    self.ops.apply(P, self.rules,
                                   self.ops.playout(P, self.rules, self.ops.legal(P, self.rules), &r))
                self.ops.rewards(P, self.rules, rew)
                for j in range(n):
                    for k in range(nf):
                        X.append(feats[j * MAX_VF + k])
                    ph.append(phases_at[j])
                    y.append(rew[seat] - start[j])
        finally:
            self.game.sampler.drop(sampler)
        return X, ph, y

    def policy_probs(self, hands):
        """The learned policy's probability of each legal card with every
        seat's ``hands`` (card masks) in place of a determinization
        (``{card: probability}``; every legal card, none merged), for
        tests; ``{}`` without a loaded policy."""
        cdef uint64_t P[STATE_WORDS]
        cdef double probs[64]
        cdef uint64_t L
        cdef int i
        cdef CardPolicy* C = self.game.card_policy(self.rules)
        if C == NULL or not C.loaded or self.game.policy == NULL:
            return {}
        memcpy(P, self.state, self.ops.state_size)
        for i in range(min(len(hands), self.game.seats(self.rules))):
            P[i] = hands[i]
        L = self.ops.legal(P, self.rules)
        self.game.policy(P, self.rules, L, probs)
        return {i: probs[i] for i in range(64) if (L >> i) & 1}

    def run(self, long iterations, double seconds, uint64_t seed, int trees, double c,
            poll=None, int workers=0):
        """Grow ``trees`` trees (``iterations`` split between them; a
        positive ``seconds`` is a deadline too) on ``workers`` threads (0:
        one a tree; the answer for an iteration limit does not depend on
        it); returns ``({action: visits}, {action: mean reward of the
        searching seat}, iterations done, {action: sum of squared rewards},
        per tree {action: (visits, mean)}, per tree {action: [(count, sum)
        of each batch]})``."""
        cdef int t, made = 0
        if trees < 1 or trees > 64:
            raise ValueError("trees must be 1..64")
        if workers < 0 or workers > 64:
            raise ValueError("workers must be 0..64")
        if workers == 0 or workers > trees:
            workers = trees
        cdef void** samplers = <void**>calloc(trees, sizeof(void*))
        if not samplers:
            raise MemoryError()
        try:
            for t in range(trees):
                samplers[t] = self.game.sampler.copy(self.graph)
                made += 1
            return run_trees(&self.ops, self.state, self.rules, samplers, trees, workers,
                             iterations, seconds, seed, c, poll, self.flat,
                             self.offsets if self.has_offsets else NULL)
        finally:
            for t in range(made):
                self.game.sampler.drop(samplers[t])
            free(samplers)

    def moves(self, hands):
        """``(legal, searched)`` with every seat's ``hands`` (card masks) in
        place of a determinization: the masks of the legal moves and of those
        a tree searches below its root (one of each class of equivalent
        cards), for tests.  Every compact state starts with its hands."""
        cdef uint64_t P[STATE_WORDS]
        cdef uint64_t L
        cdef int i
        memcpy(P, self.state, self.ops.state_size)
        for i in range(min(len(hands), self.game.seats(self.rules))):
            P[i] = hands[i]
        L = self.ops.legal(P, self.rules)
        return L, self.ops.reduce(P, self.rules, L, 0)

    def simulate(self, uint64_t seed):
        """One determinization and one play-out (the search's own play-out
        policy), for tests; what it returns is the game's (its row's
        ``outcome``, see the rows above)."""
        cdef Rng r
        cdef uint64_t P[STATE_WORDS]
        cdef int a
        cdef void* s = self.game.sampler.copy(self.graph)
        try:
            rng_seed(&r, seed)
            memcpy(P, self.state, self.ops.state_size)
            self.ops.determinize(P, self.rules, s, &r)
            world = self.game.world(P, self.rules, self.game.sampler, self.graph, seed)
            played, notes = [], []
            while not self.ops.over(P, self.rules):
                a = self.ops.playout(P, self.rules, self.ops.legal(P, self.rules), &r)
                played.append(a)
                self.ops.apply(P, self.rules, a)
                if self.game.note != NULL:
                    self.game.note(P, notes)
            if notes:
                return self.game.outcome(P, self.rules, (world, notes), played)
            return self.game.outcome(P, self.rules, world, played)
        finally:
            self.game.sampler.drop(s)
