#' The next pairs to ask: active selection of constraints
#'
#' Chooses which pairs of points a person (or an oracle) should label as
#' must-link or cannot-link next, given the data or a fit and the pairs
#' answered so far. Candidate pairs come from a sample of points or from the
#' neighbourhoods built so far, never from all \eqn{n^2} pairs. Pairs whose
#' answer is known or implied (both points in one must-link chunklet, or in
#' two chunklets with a cannot-link between them) and the pairs in `exclude`
#' are never returned. Random numbers come from R's generator, so
#' [set.seed()] reproduces a choice.
#'
#' @section Strategies:
#' * `"random"`: pairs of points drawn uniformly, the baseline every learning
#'   curve is compared with.
#' * `"explore_consolidate"` (Basu, Banerjee & Mooney 2004). *Explore*: a
#'   farthest-first traversal of the data (squared Euclidean distance): the
#'   next point is the one farthest from every point already in a
#'   neighbourhood; it is asked against one member of each neighbourhood,
#'   nearest centroid first, until a must-link puts it in that neighbourhood;
#'   cannot-links with all of them make it a new neighbourhood. This goes on
#'   until there are `k` neighbourhoods. When the clusters are separated
#'   (every cluster's diameter below the distance between any two clusters)
#'   the first `k` traversed points lie one in each cluster and exploration
#'   asks exactly \eqn{k(k-1)/2}{k(k - 1)/2} questions (the m-th
#'   neighbourhood costs m - 1 cannot-links), the bound the tests check.
#'   *Consolidate*: a random point outside the neighbourhoods is asked
#'   against their members in the order of the distance from the point to
#'   their centroids until a must-link; the last neighbourhood may be
#'   inferred rather than asked (see Inferred answers).
#' * `"min_max"` (Mallapragada, Jin & Jain 2008): explores as
#'   Explore-Consolidate; consolidation picks, among `candidates` points
#'   drawn at random, the one whose largest similarity to the points already
#'   in neighbourhoods is the smallest (the most uncertain point). With any
#'   similarity that decreases with the distance (a Gaussian kernel, for
#'   instance) that is the point farthest from every neighbourhood point, so
#'   no bandwidth is needed; the score is that squared distance. It is then asked as in consolidation.
#' * `"npu"` (Xiong, Azimi & Fern 2014): for `candidates` points drawn at
#'   random, the probability \eqn{p_h} that the point belongs to each
#'   neighbourhood h is its mean similarity to its 5 nearest members of the
#'   neighbourhood (of up to 500 drawn at random), normalized over the
#'   neighbourhoods; the similarity is a Gaussian kernel of the squared
#'   distance with the median distance to the nearest neighbourhood member as
#'   bandwidth (NPU uses a random forest's proximity). With `posterior`, the
#'   similarity is the co-clustering probability, averaged over up to 20
#'   members. A fit's own posterior is not used unless passed as
#'   `posterior`: on eight UCI data sets, variational TVClust asked by an
#'   earlier kernel (the mean over 20 random members) reached a mean F of
#'   0.94 at 300 questions, asked by its own co-clustering probabilities
#'   0.90; with the nearest members and inferred answers (below) the kernel
#'   reaches 0.96 (`bench/results/active-queries.md` in the source). The
#'   nearest members rather than all of them: a cluster that is wide or
#'   wraps around another is judged where it is near the point. The point
#'   with the largest entropy
#'   \eqn{-\sum p_h \log p_h}{-sum p_h log p_h} per expected number of
#'   questions \eqn{\sum_r r\, p_{(r)}}{sum_r r p_(r)} (neighbourhoods asked
#'   in decreasing probability) is asked against the neighbourhoods in
#'   decreasing probability until a must-link; when every answer is
#'   cannot-link it becomes a new neighbourhood, unless there are already
#'   `k` (see Contradictions). With fewer than two
#'   neighbourhoods every entropy is 0, so NPU first explores as
#'   Explore-Consolidate until there are two.
#' * `"uncertainty"`: the pair whose co-clustering probability \eqn{p_{ij}}
#'   under the fit's posterior is closest to 1/2, weighted by how many
#'   points its answer moves. With `weighted = FALSE` the score is the binary
#'   entropy \eqn{H(p_{ij})} (in bits): for an exact posterior and a truthful
#'   answer this is exactly the information the answer gives about the
#'   partition (the answer is a function of the partition), so the least
#'   sure pair is the most informative one. But two pairs equally unsure are
#'   not worth the same: the answer also moves the co-clustering of i and j
#'   with the other points. The default score is therefore the expected
#'   fall, once the answer is known, of the summed entropy
#'   \eqn{H(p_{ij}) + \sum_{l} [H(p_{il}) + H(p_{jl})]}{H(p_ij) + sum_l
#'   (H(p_il) + H(p_jl))} over the other points l: the number of pairwise
#'   decisions the answer settles, counting only the pairs that touch i or
#'   j. For a posterior given by partitions (a sampler's draws, or every
#'   partition with its exact probability) the conditioning on the answer is
#'   exact; for responsibilities it assumes independent memberships (mean
#'   field, which is what a variational fit is): given a must-link, i and j
#'   share component k with probability \eqn{\propto r_{ik} r_{jk}}{prop. to
#'   r_ik r_jk}, given a cannot-link their components are drawn from
#'   \eqn{r_{ik} r_{jk'}}{r_ik r_jk'} with \eqn{k \ne k'}{k != k'}, and the
#'   other points keep theirs. The approximation leaves out the pairs that
#'   touch neither i nor j (what an answer changes there comes through i and
#'   j) and, above 202 points, sums over 200 random points l, scaled to all.
#'   Only the 200 candidates of largest entropy are rescored this way. The
#'   tests check both scores against an exact posterior, enumerated over all
#'   partitions of six points: the unweighted choice is the least sure pair
#'   and the pair whose answer tells most about the partition; the weighted
#'   choice (a different pair there) is the one whose answer most lowers the
#'   summed entropy of all pairwise decisions, pairs away from i and j
#'   included.
#'   Posteriors: [tvclust()] (Gibbs: its stored draws; variational: the
#'   responsibilities), [constrained_mixture()] (`z`), [cec()] and
#'   [cec_ib()] (their predicted probabilities), or `posterior`. Candidates:
#'   every pair when there are at most `candidates` pairs; otherwise, for
#'   `candidates` random points, a partner from the cluster whose
#'   co-clustering probability with the point (judged on one random member)
#'   is closest to 1/2, and a random partner.
#'
#' @section Sequential procedures and their state:
#' Explore-Consolidate, Min-Max and NPU are sequential: the next question
#' depends on the last answer. Their state is derived from `side` at every
#' call, so calling again with the updated constraints continues the
#' procedure: the must-link chunklets are the units; the neighbourhoods are
#' chunklets that are pairwise cannot-linked (grown greedily, chunklets with
#' more cannot-linked chunklets first, then larger ones); a chunklet outside
#' them with cannot-links to some neighbourhoods (or pairs in `exclude`) is
#' pending and is asked against the next neighbourhood before any new point.
#' A point is asked against a neighbourhood's hub: the member that most
#' must-link answers tie to it (the point it grew from, since every point
#' joins by a must-link to the hub), the nearest of them on a tie. Asked
#' against the nearest member instead, a point that a wrong answer let into
#' a neighbourhood would draw its own cluster after it, each truthful
#' "same" adding another wrong member.
#' Pairs that got no answer go to `exclude`: the point is then asked against
#' another member, or the next neighbourhood. Partial labels count as their
#' classes, each a neighbourhood.
#'
#' @section Contradictions:
#' With `k` clusters there are at most `k` neighbourhoods, so a point
#' answered cannot-link by all `k` contradicts `k`: one answer is wrong (or
#' `k` is). With a labeller who errs once in ten, about one point in ten
#' gets there, and making it a neighbourhood of its own would split its
#' cluster in two, since every later point of that cluster may join either
#' half. So its cannot-links are asked again, first in the next calls, one
#' at a time, the same pairs, most probable neighbourhood first (nearest
#' centroid for Explore-Consolidate and Min-Max, largest \eqn{p_h}{p_h} for
#' NPU); phase `"recheck"`. A must-link then replaces the cannot-link (as in
#' [active_side()], the last answer to a pair counts) and the point joins
#' that neighbourhood. A pair asked twice goes to `exclude` ([active_side()]
#' and [label_pairs()] do this), so it is not asked a third time. When every
#' cannot-link of the point stood, the point is left out (in no
#' neighbourhood, not asked again), and the two neighbourhoods with the
#' nearest centroids have their cannot-link asked again: a wrong cannot-link
#' while exploring splits one cluster into two neighbourhoods and leaves
#' another cluster without one, whose points all end up here.
#' Where the constraints cannot tell which of k + 1 mutually cannot-linked
#' chunklets is the newcomer, the one set aside is one of the smallest
#' (preferring one asked again before), the one nearest another.
#' NPU without `k` and without a fit keeps making new neighbourhoods. A
#' truthful labeller never contradicts the true `k`, so with it nothing is
#' asked twice, apart from the confirmations below.
#'
#' @section Confirmed neighbourhoods:
#' While there are fewer than `k` neighbourhoods, a point answered
#' cannot-link by every one of them makes a new one, and that rests on each
#' of those answers. One wrong "different" to the point's own neighbourhood
#' makes a second neighbourhood of the same cluster, which takes the place of
#' a cluster that then has none (with a labeller who errs once in ten, NPU
#' left 1 to 3 of ecoli's 8 classes without a neighbourhood in each of 5
#' runs looked at). With
#' `confirm = TRUE` a lone point cannot-linked to every neighbourhood is not
#' yet one: its cannot-link to the most probable neighbourhood (as in
#' Contradictions) is asked again first, phase `"recheck"`, and it becomes a
#' neighbourhood only when the answer stands; a must-link puts it in that
#' neighbourhood. This costs one question per neighbourhood after the first
#' (k - 1 in all, so Explore-Consolidate's exploration of separated clusters
#' asks \eqn{k(k-1)/2 + k - 1}{k(k - 1)/2 + k - 1}), and a wrong
#' neighbourhood now needs two wrong answers to the same pair. It relies on
#' `exclude` holding the pairs asked twice, so it is off here by default;
#' [active_side()], which keeps `exclude`, turns it on (`query_args =
#' list(confirm = FALSE)` turns it off there). It helps where a second
#' answer to the same pair is a new draw, as with [oracle_from_labels()];
#' a person shown the pair they just answered mostly gives the same answer
#' again, so [label_pairs()] leaves it off unless `query_args` turns it on.
#'
#' @section Inferred answers:
#' With `k` neighbourhoods, a point answered cannot-link by all of them but
#' one belongs to that one if the answers are right. Basu, Banerjee & Mooney
#' (2004) place it there without asking. Here (with `infer = TRUE`) it is
#' placed without asking only when the answers were expected: the
#' probability of the last neighbourhood (NPU's kernel probability
#' \eqn{p_h}{p_h} below, whatever the strategy) is at least half that of
#' each neighbourhood that answered cannot-link. A cannot-link the kernel
#' did not expect is the likelier to be wrong, so then the last
#' neighbourhood is asked too, and a wrong answer shows as a contradiction
#' (see Contradictions). The row of an inferred must-link has phase
#' `"inferred"`: it is not a question, and its answer is must-link.
#' [active_side()] records it without asking and does not count it against
#' the budget; [label_pairs()] does not infer (`infer = FALSE`), so every
#' pair it returns was answered. With two clusters an expected inference
#' saves the second question of a point whose first answer was cannot-link;
#' with more, the last neighbourhood is the least probable and is seldom
#' expected. In `bench/results/active-queries.md` (neighbourhoods
#' confirmed) NPU reached random pairs' F at 300 questions within 150
#' questions on 6 of the 8 data sets with variational TVClust, MPCK-means and
#' LCVQE (5 with RDP-means), and lost less F to one wrong answer in ten than
#' random pairs did with every method. On ten more runs with other seeds
#' (`active-queries-seeds2.md`) TVClust and MPCK-means did so again, while
#' LCVQE and RDP-means reached random pairs' F on 4 and 5 of the 8 sets:
#' with 10 runs these counts move by a set or two from draw to draw.
#'
#' @section Batches:
#' With `batch > 1` the pairs are not redundant: no point is in two pairs of
#' a batch (neighbourhood members are reused only when a neighbourhood has
#' fewer members than the batch needs); the neighbourhood strategies ask each
#' point its first question only (pending points first, then new points
#' chosen farthest-first among themselves for exploration and Min-Max); the
#' uncertainty strategy also skips a pair whose two points more likely than
#' not lie with the two points of a pair already chosen, one each (its answer
#' would follow from that pair's).
#'
#' @param x The data (a numeric matrix or data frame, one row per point), or
#'   a fit of the package: then its data and, unless `side` is given, its
#'   side information are used, and its posterior for `"uncertainty"`.
#' @param side The pairs answered so far: anything [as_constraints()]
#'   accepts, or `NULL` for none.
#' @param strategy `"random"`, `"explore_consolidate"`, `"min_max"`,
#'   `"npu"` or `"uncertainty"`; see Strategies.
#' @param batch How many pairs to return (a whole number, at least 1).
#' @param k The number of clusters: the number of neighbourhoods
#'   Explore-Consolidate and Min-Max explore for, and for them and NPU the
#'   most neighbourhoods there can be (see Contradictions); by default the
#'   fit's number of clusters (NPU on data alone: no limit).
#' @param posterior For `"uncertainty"` (and `"npu"`, which otherwise uses
#'   its kernel): a fit with a posterior,
#'   an n x k matrix of memberships, or a list with `draws` (a matrix of
#'   partitions, one per row, n columns) and optionally `weights` (one per
#'   partition; equal by default); for `"uncertainty"`, by default the
#'   posterior of `x` when it is a fit.
#' @param exclude Pairs not to ask again: asked before without an answer,
#'   or asked twice (a recheck; see Contradictions), as a data frame with
#'   columns `i` and `j` or a two-column matrix, `i` the point that was
#'   being placed.
#' @param candidates How many points (or, for `"uncertainty"` on tiny data,
#'   pairs) are scored.
#' @param weighted For `"uncertainty"`: score by the expected fall of the
#'   entropy of the pairs the answer moves (`TRUE`) or by the pair's own
#'   entropy (`FALSE`); see Strategies.
#' @param confirm For the neighbourhood strategies: ask a new
#'   neighbourhood's cannot-link again before it counts (see Confirmed
#'   neighbourhoods)? Needs the pairs asked twice in `exclude`.
#' @param infer For the neighbourhood strategies with `k`: return the
#'   must-link of a point to the one neighbourhood left, when expected, as
#'   an inferred row rather than ask it (see Inferred answers)?
#' @return A data frame with one row per pair, in the order to ask them:
#'   `i`, `j` (for the neighbourhood strategies `i` is the point being placed
#'   and `j` the neighbourhood member), `score` (the strategy's criterion,
#'   larger first; `NA` where the strategy ranks none: random pairs, random
#'   consolidation points, pending points, rechecks), `phase` (`"explore"`,
#'   `"consolidate"`, `"recheck"` or `"inferred"` (not a question: see
#'   Inferred answers) for the neighbourhood strategies, else `NA`),
#'   `strategy`, and for `"uncertainty"` `p_same`, the co-clustering
#'   probability. Fewer rows than `batch` when fewer pairs are left to ask.
#' @references
#' Basu, S., Banerjee, A. and Mooney, R. J. (2004). Active semi-supervision
#' for pairwise constrained clustering. SIAM International Conference on
#' Data Mining.
#'
#' Mallapragada, P. K., Jin, R. and Jain, A. K. (2008). Active query
#' selection for semi-supervised clustering. International Conference on
#' Pattern Recognition.
#'
#' Xiong, S., Azimi, J. and Fern, X. Z. (2014). Active learning of
#' constraints for semi-supervised clustering. IEEE Transactions on
#' Knowledge and Data Engineering 26, 43-54.
#' @seealso [active_side()] for the whole loop, [oracle_from_labels()],
#'   [constraints()].
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' q <- query_pairs(x, strategy = "explore_consolidate", k = 3)
#' q
#' # answer it and continue the procedure
#' side <- constraints(cannot = as.matrix(q[, c("i", "j")]), n = nrow(x))
#' query_pairs(x, side, strategy = "explore_consolidate", k = 3)
#' # posterior uncertainty from a variational TVClust fit, 5 pairs at once
#' fit <- tvclust(x, side, method = "variational", k = 3)
#' query_pairs(fit, strategy = "uncertainty", batch = 5)
#' @export
query_pairs <- function(x, side = NULL,
                        strategy = c("random", "explore_consolidate", "min_max", "npu", "uncertainty"),
                        batch = 1L, k = NULL, posterior = NULL, exclude = NULL,
                        candidates = 1000L, weighted = TRUE, infer = TRUE, confirm = FALSE) {
  strategy <- match_arg(strategy)
  fit <- if (inherits(x, "sideclust")) x else NULL
  if (!is.null(fit)) {
    if (missing(side)) side <- fit$side
    x <- fit$data
  }
  n <- if (!is.null(fit)) length(fit$cluster) else NROW(x)
  needs_data <- strategy %in% c("explore_consolidate", "min_max", "npu")
  if (needs_data || is.null(fit)) {
    if (is.null(x)) stop_arg("x", "is a fit that keeps no copy of its data; pass the data")
    x <- check_data_matrix(x, "x", min_rows = 2L)
    n <- nrow(x)
  }
  batch <- check_count(batch, "batch", lower = 1L)
  candidates <- check_count(candidates, "candidates", lower = 1L)
  weighted <- check_flag(weighted, "weighted")
  infer <- check_flag(infer, "infer")
  confirm <- check_flag(confirm, "confirm")
  side <- as_side_info(side, n, "side")
  exclude <- check_exclude(exclude, n)
  pairs <- active_pairs(side, n)
  out <- switch(strategy,
    random = query_random(n, batch, pairs, exclude, neighbourhood_unit(pairs, n)),
    uncertainty = {
      src <- posterior_source(posterior, fit, n)
      if (is.null(src)) {
        stop_arg(if (is.null(fit)) "posterior" else "x",
                 "gives no posterior for strategy = \"uncertainty\": pass a fit of tvclust(), ",
                 "constrained_mixture(), cec() or cec_ib(), or `posterior`")
      }
      query_uncertainty(src, n, batch, pairs, exclude, neighbourhood_unit(pairs, n),
                        candidates, weighted)
    },
    {
      if (strategy == "npu") {
        k <- if (!is.null(k) || !is.null(fit$k)) active_k(k, fit, n)
        st <- neighbourhood_state(pairs, exclude, n, k, x, infer, confirm)
        query_npu(x, st, batch, exclude, candidates, posterior_source(posterior, NULL, n))
      } else {
        k <- active_k(k, fit, n)
        st <- neighbourhood_state(pairs, exclude, n, k, x, infer, confirm)
        query_explore_consolidate(x, st, k, batch, exclude,
                                  if (strategy == "min_max") "min_max" else "random", candidates)
      }
    })
  out$strategy <- rep(strategy, nrow(out))
  rownames(out) <- NULL
  out
}

neighbourhood_unit <- function(pairs, n) {
  .side_components_cpp(n, pairs$i[pairs$must], pairs$j[pairs$must])
}

# The number of neighbourhoods to explore for: `k`, or the fit's.
active_k <- function(k, fit, n) {
  if (is.null(k)) {
    if (is.null(fit$k)) {
      stop_arg("k", "is needed by Explore-Consolidate and Min-Max (the number of neighbourhoods to explore for); give it, or pass a fit")
    }
    k <- fit$k
  }
  check_count(k, "k", lower = 1L, upper = n)
}
