#' DP-means and relational DP-means (RDP-means)
#'
#' `dp_means()` is the small-variance limit of a Dirichlet-process mixture
#' (Kulis & Jordan 2012): k-means that opens a new cluster whenever a point is
#' farther than `lambda` from every centre. `rdp_means()` adds side
#' information (Khashabi et al., Algorithm 1): point \eqn{i} joins the cluster
#' \eqn{k} that minimizes the augmented distance
#' \deqn{D(x_i, \mu_k) - \xi_1 f_k^i + \xi_2 s_k^i,}{D(x_i, mu_k) - xi1 f_ki + xi2 s_ki,}
#' where \eqn{f_k^i} and \eqn{s_k^i} are the total confidence of the
#' must-links and cannot-links between point \eqn{i} and the members of
#' cluster \eqn{k}, or opens a new cluster when that minimum exceeds `lambda`.
#'
#' The algorithm starts from one cluster. Each sweep visits every point (in a
#' new random order by default, as the authors did, see `order`), then moves
#' every centre to the mean of its points and drops empty clusters. The weights start at
#' `xi` and are multiplied by `xi_rate` after every sweep, up to `xi_max`, so
#' that the constraints tighten gradually. The run stops when no point has
#' moved for `patience` consecutive sweeps (20 in the paper's experiments),
#' as soon as one sweep changes nothing once the weights have stopped growing
#' (every later sweep would repeat it), or after `max_iter` sweeps. While the
#' weights still grow, a sweep that changes nothing also ends the run when
#' growing weights cannot pull any point away: every point's own cluster holds
#' at least as much of its must-link weight as any other cluster and none of its
#' cannot-link weight (for instance, when no constraint is broken). The rest of the
#' schedule would then change only the weights, so an easy fit stops after two
#' sweeps instead of the 15 the default schedule needs to reach `xi_max`, with
#' the same clusters and centres; `xi` and `objective` report the weights of
#' the last sweep run. Khashabi et al.'s 20 unchanged sweeps remain the rule
#' when neither shortcut applies.
#'
#' Partial labels are used as side information without expanding them into
#' pairs: two labelled points act as a must-link of weight 1 when their labels
#' agree and as a cannot-link otherwise, and the counts come from per-cluster
#' label tallies in \eqn{O(1)} per point and cluster.
#'
#' @section Objective:
#' `objective` records, after every sweep, objective (20) of the paper
#' \deqn{\sum_i D(x_i, \mu_{z_i}) - \xi_1 \sum_{\textrm{kept must-links}} c_{ij}
#'   + \xi_2 \sum_{\textrm{violated cannot-links}} c_{ij} + \lambda K}{sum_i
#'   D(x_i, mu_zi) - xi1 (kept must-link weight) + xi2 (violated cannot-link
#'   weight) + lambda K}
#' at that sweep's weights, each pair counted once. (The paper writes the side
#' terms as sums over points, which count every pair twice; that is the same
#' objective at twice the weights.) With each pair counted once, the
#' assignment rule above is exactly a greedy descent step: at convergence no
#' single point can move to another cluster, or to a new one, and lower the
#' objective at the final weights and centres (for `"sqeuclidean"`, leaving
#' aside a point alone in its cluster, which compares the other clusters with
#' its divergence 0 rather than with `lambda`; see Count data). With fixed weights
#' (`xi_rate = 1`) the objective never increases from one sweep to the next.
#'
#' @section Number of clusters:
#' With `k`, `lambda` is searched for a fit with `k` non-empty clusters: the
#' search starts from the heuristic `lambda` of [dp_lambda()], multiplies or
#' divides it by 4 until the number of clusters brackets `k`, then bisects
#' `log(lambda)` until a fit has `k` clusters. The number of clusters falls as
#' `lambda` grows, though not strictly (a larger `lambda` now and then gives
#' one cluster more), and can jump over `k`; then the fit with the nearest
#' number of clusters found is returned (the fewer on a tie) with a message.
#' Every fit of the search starts from the random state the call started
#' with, so the search is reproducible under [set.seed()] and the `lambda` it
#' reports gives the same fit again: `set.seed(s); rdp_means(x, side, lambda
#' = fit$lambda)` returns the clusters of `set.seed(s); fit <- rdp_means(x,
#' side, k = k)`. A search makes at most `getOption("sideclust.lambda_search_fits", 30)`
#' fits (each with `restarts` runs), typically 3 to 10; `lambda_search` in
#' the fit records them.
#'
#' With neither `k` nor `lambda`, the number of clusters is chosen by
#' held-out side information (5-fold cross-validation): the pairs (for
#' partial labels, the labelled points) are split into five folds; for each
#' fold and every k from 1 to `min(n, 20)`, the method is fitted with k
#' clusters (by the search above) on the other folds' side information and
#' scored on the held-out pairs by the balanced agreement, the mean of the
#' fraction of must-link weight kept together and the fraction of
#' cannot-link weight kept apart. The chosen k is the smallest whose mean
#' score is within one standard error (over the folds) of the best (the
#' one-standard-error rule of Breiman et al. 1984), and the fit is then the
#' search for that k with all the side information. This costs about five
#' times 20 to 40 fits plus the final search (progress through
#' \pkg{progressr}). On the TVClust protocol's five UCI data sets
#' (`bench/results/rdp-means-uci.md`) it finds the number of classes to a
#' mean absolute error of about one cluster, at an F-measure no lower than
#' that of `k` set to the number of classes. `k_selection` in the fit holds
#' the scores. Without side information, `dp_means()` and `rdp_means()`
#' (divergence `"sqeuclidean"` only) choose the k from 1 to `min(n, 20)`
#' with the lowest BIC of a mixture of spherical Gaussians with one shared
#' variance (the model whose small-variance limit DP-means is), each k
#' fitted by the search; for `"kl"` and `"idiv"` without side information,
#' give `k` or `lambda`. `k_method` in the fit says which way was taken
#' (`"lambda"`, `"k"`, `"held-out side information"` or `"bic"`), and
#' `print()` says it too.
#'
#' @section Divergences:
#' * `"sqeuclidean"`: squared Euclidean distance (Gaussian clusters).
#' * `"kl"`: Kullback-Leibler divergence for count data (multinomial
#'   clusters). Each row gets `smoothing` added to every count (Laplace
#'   smoothing; 0.3 as in the paper's ImageNet experiment) and is then scaled
#'   to sum to one; centres live on that simplex.
#' * `"idiv"`: generalized I-divergence \eqn{\sum x \log(x/\mu) - x + \mu}
#'   (Poisson clusters), on the counts plus `smoothing` (default 0.3; without
#'   it a cluster opened at one sparse count vector is infinitely far from
#'   every point with a word it lacks, so it can never gain a member).
#'
#' @section Count data:
#' For `"kl"` and `"idiv"` the weights `xi` and `xi_max` are on the scale of
#' the log-likelihood, the scale of the small-variance limit the algorithm
#' comes from (Khashabi et al. 2015, Section 4.3: the weights are log-odds of a
#' pair given the clusters, divided by the scale that turns the divergence
#' into a log-likelihood). The I-divergence of counts is the Poisson
#' log-likelihood itself, so its weights are used as given; the KL divergence
#' between normalized rows is the multinomial log-likelihood divided by the
#' row's count, so its weights are divided by the mean count of the rows
#' (after smoothing). On KL's own scale, where `lambda` is about 0.2 to 0.7 on
#' documents, the default cap of 10 was 14 to 50 times `lambda`, and must-links
#' alone could merge a good fit into one cluster.
#'
#' For these two divergences a point alone in its cluster also compares the
#' other clusters with `lambda`, the cost of the cluster it closes by leaving,
#' rather than with its divergence 0 to itself: that is the greedy step on
#' the objective, and on sparse counts, where a cluster opened at one point is
#' far from every other point, it lets the points that cannot-links pushed
#' into clusters of their own come back once a cluster without their partners
#' exists. Without it the number of clusters grew to 30 to 200 with clean
#' pairs on 10-topic counts (see `bench/results/count-data.md`). The
#' squared Euclidean distance keeps its weights and its rule for singletons.
#'
#' Also for these two divergences, when side information is given, the
#' sweeps run a second time from a start the side information seeds, and
#' the run with the lower objective (20) is kept (compared at the larger of
#' the two runs' final weights; a tie keeps Algorithm 1's run). The seeds are
#' the classes of partial labels, or the must-link chunklets of the
#' constrained points taken largest first, each kept when cannot-links join
#' it to every seed kept before; every point starts in the cluster of the
#' nearest seed mean. The kept fit is then refined by split moves: a cluster
#' holding both points of a cannot-link is split between the two points'
#' must-link chunklet means, the sweeps run again from there, and the split
#' is kept when the objective is lower (at most 40 such runs, up to 8 broken
#' cannot-links drawn at random per round). On
#' documents one starting cluster is a deep local minimum: a point the
#' cannot-links push out alone is farther from every other point than
#' `lambda`, so clusters of a topic never form one point at a time, although
#' the topics' partition has the lower objective. The extra runs cost time:
#' up to 42 runs instead of one.
#'
#' The two count divergences weigh documents differently. The I-divergence
#' is the Poisson log-likelihood of all of a row's counts: it grows with the
#' row's total, and it is the multinomial divergence of the row's
#' proportions times that total plus the Poisson divergence of the total
#' itself (Banerjee et al. 2005). Poisson clusters therefore also describe
#' how long their rows are, and the longest rows weigh most. On documents of
#' very different lengths, same-topic documents of different lengths then
#' belong to different clusters, and a few pairs cannot change that:
#' the pairs are kept just as well by clusters of similar lengths.
#' `"kl"` compares the rows' proportions, and weighs every row alike. For
#' topics in documents of varying length, use `"kl"`. Use `"idiv"` when
#' the totals carry information, as they do for Poisson counts.
#'
#' @section Sparse data:
#' A sparse `x` (a `Matrix` sparse matrix such as a `dgCMatrix`, or slam's
#' `simple_triplet_matrix`, e.g. a document-term matrix) stays sparse: it is
#' converted once to rows of non-zeros (a `dgRMatrix` is read as is, a
#' `dgCMatrix` costs one transpose), smoothing and the KL normalization are
#' kept as a per-row scale and a shared offset rather than stored, and a sweep
#' costs \eqn{O(\textrm{nnz} \times K)}{O(nnz K)} instead of
#' \eqn{O(n p K)}{O(n p K)}; centres stay dense (`K` x `p`). For `"kl"` and
#' `"idiv"` the divergence of a point is its sum over the non-zeros plus terms
#' of the centre alone; for `"sqeuclidean"` it is evaluated as
#' \eqn{|x|^2 - 2 x \cdot \mu + |\mu|^2}{|x|^2 - 2 x.mu + |mu|^2}, which
#' loses precision for data far from the origin (do not centre sparse data:
#' that would make it dense anyway). The fit is the one the dense matrix gives
#' (same clusters, objective equal up to rounding; a point whose divergence
#' ties with `lambda` or between two centres to the last bits, as the point
#' `lambda` was derived from can, may go either way). The centres take
#' \eqn{K \times p}{K x p} doubles (about four copies in the core), so a
#' fit stops with an error if a too small `lambda` opens more clusters than
#' `getOption("sideclust.max_center_bytes", 2e9)` bytes allow.
#'
#' @param x Data: a numeric matrix or data.frame, one row per point, or a
#'   sparse matrix (see the Sparse data section of [rdp_means()]).
#' @param side Side information: `NULL`, a [constraints()] object, partial
#'   labels (a vector with `NA` for unlabelled points), a TVClust matrix E, or
#'   anything else [as_constraints()] accepts. Confidences scale the weights.
#' @param k The number of clusters. DP-means and RDP-means open clusters
#'   through the penalty `lambda`, so a given `k` is reached by searching
#'   `lambda` (see Number of clusters); when no `lambda` gives exactly `k`,
#'   the fit with the nearest number is returned with a message. Give `k`,
#'   `lambda`, or neither (the number of clusters is then chosen from the
#'   side information, see Number of clusters).
#' @param lambda Penalty for opening a cluster, on the scale of the
#'   divergence; when given, `k` must not be, and the fit is the single run
#'   at that `lambda`.
#' @param xi Starting weight of the side information in the first sweep:
#'   one number, or two named `must` and `cannot` (\eqn{\xi_1, \xi_2}). On the
#'   divergence's scale for `"sqeuclidean"`, on the log-likelihood's for `"kl"`
#'   and `"idiv"` (see Count data).
#' @param xi_rate Factor applied to the weights after every sweep (the paper
#'   uses 2). Use 1 to keep `xi` fixed.
#' @param xi_max Cap on the weights (one number or two as for `xi`, on the
#'   same scale). The
#'   paper lets the weights grow without bound (`Inf`), which lets wrong
#'   constraints override the data. On the paper's UCI protocol
#'   (`vignette("performance")`) a cap of 10 raises the F-measure / ARI / NMI
#'   with 20% wrong constraints by 0.03 / 0.04 / 0.06 and leaves the results
#'   with correct constraints unchanged (to 0.01), so it is the default. For
#'   side information known to be noisy, a cap near 2 did best there (0.07 /
#'   0.09 / 0.12 above `Inf`), at a cost of 0.03 to 0.05 with correct
#'   constraints.
#' @param divergence `"sqeuclidean"`, `"kl"` or `"idiv"`, see Divergences.
#' @param smoothing Count added to every entry for `"kl"` and `"idiv"`;
#'   `NULL` means 0.3 (the paper's Laplace smoothing). Ignored for
#'   `"sqeuclidean"`.
#' @param lambda_method The heuristic ([dp_lambda()]) whose `lambda` for `k`
#'   starts the search for `k` clusters.
#' @param order `"random"` visits the points in a new random order every sweep
#'   (reproducible with [set.seed()]). On small data it is a uniformly
#'   random permutation; on large data, every sweep visits blocks of
#'   consecutive rows in a random order, the rows of each block in row
#'   order: a shuffled index of blocks with sequential access inside, which
#'   keeps memory access local without copying the data, so that a sweep
#'   costs about what a fixed-order one does (several times less than a
#'   uniformly random permutation). The random part of the order is which
#'   block comes when; on large data sorted by class (UCI files often are) a
#'   block holds rows of one class visited one after another, so shuffle the
#'   rows first, or use `"uniform"`, if that matters. `"uniform"` is a
#'   uniformly random permutation every sweep at any size (slower on large
#'   data), `"fixed"` visits the points in row order.
#' @param patience Number of consecutive sweeps without a change that ends the
#'   run.
#' @param max_iter Maximum number of sweeps.
#' @param restarts Number of runs from different random visiting orders (with
#'   `order = "random"` or `"uniform"`); the run with the lowest final
#'   objective is kept.
#' @param verbose Report one line per sweep (as messages).
#' @param chunklet_moves After every sweep, also try moving each must-link
#'   chunklet (connected component of the must-links) as a whole to the
#'   cluster that lowers the objective most, if any does. Algorithm 1 moves
#'   single points only, and cannot reunite a chunklet split across two
#'   clusters when its points have as many links on each side; whole-chunklet
#'   moves can, so that consistent hard constraints end up satisfied. Each
#'   such move lowers the objective at the current centres, so the descent
#'   property is kept; it costs up to one more pass over the chunklets'
#'   points per sweep. Needs pairwise side information (expand partial labels
#'   with [as_constraints()] first).
#' @return An object of class `c("rdp_means", "sideclust")` (or
#'   `c("dp_means", "sideclust")`), a list with
#'   \item{cluster}{integer cluster of every point, `1..k`, numbered in the
#'     order of their first point.}
#'   \item{k}{number of clusters.}
#'   \item{centers}{`k` x `p` matrix of cluster centres (for `"kl"`, of the
#'     normalized rows).}
#'   \item{size}{points per cluster.}
#'   \item{lambda}{the penalty used (found by the search when `k` was given).}
#'   \item{k_method}{how `lambda` was set: `"lambda"` (given), `"k"` (searched
#'     for `k`), `"held-out side information"` or `"bic"` (neither given),
#'     see Number of clusters.}
#'   \item{lambda_search}{with `k` or neither: the `k` searched for, whether
#'     it was `found`, the number of `fits` and the `lambdas` tried with the
#'     `counts` of clusters they gave.}
#'   \item{k_selection}{with neither `k` nor `lambda`: the candidate `k`, their
#'     mean held-out `score` (and `fold_score`, `folds`, `standard_error`) or
#'     their `bic`, and the `chosen` k.}
#'   \item{xi}{the weights (`must`, `cannot`) of the last sweep, on the
#'     divergence's scale (for `"kl"`, the schedule's weight divided by the
#'     rows' mean count; see Count data).}
#'   \item{objective}{objective after every sweep (see Objective).}
#'   \item{k_trace, changes}{clusters and moved points after every sweep.}
#'   \item{iterations, converged}{sweeps run and whether the stopping rule
#'     was met before `max_iter`.}
#'   \item{agreement}{total confidence of kept and broken must-links and
#'     cannot-links at the end.}
#'   \item{divergence, smoothing, order, patience, xi_schedule, side, n,
#'     call}{the settings and side information used.}
#' @references
#' Khashabi, D., Wieting, J., Liu, J. Y. and Liang, F. (2015). Clustering with
#' side information: from a probabilistic model to a deterministic algorithm.
#' arXiv:1508.06235.
#'
#' Kulis, B. and Jordan, M. I. (2012). Revisiting k-means: new algorithms via
#' Bayesian nonparametrics. ICML.
#'
#' Breiman, L., Friedman, J. H., Olshen, R. A. and Stone, C. J. (1984).
#' Classification and Regression Trees. Wadsworth.
#'
#' Banerjee, A., Merugu, S., Dhillon, I. S. and Ghosh, J. (2005). Clustering
#' with Bregman divergences. Journal of Machine Learning Research 6,
#' 1705-1749.
#' @seealso [dp_lambda()], [constraints()], [sample_constraints()],
#'   [compare_partitions()], [violations()].
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' side <- sample_constraints(iris$Species, rate = 0.01, noise = 0.1)
#' fit <- rdp_means(x, side, k = 3)
#' fit
#' compare_partitions(iris$Species, fit$cluster)
#'
#' # without k, the number of clusters is chosen by held-out side information
#' chosen <- rdp_means(x, side)
#' chosen$k
#'
#' # DP-means ignores side information
#' dp <- dp_means(x, k = 3)
#' table(dp$cluster, iris$Species)
#'
#' # partial labels: 20% of the points labelled
#' labels <- sample_labels(iris$Species, fraction = 0.2)
#' table(rdp_means(x, labels, k = 3)$cluster, iris$Species)
#' @export
rdp_means <- function(x, side, k = NULL, lambda = NULL, xi = 0.001,
                      xi_rate = 2, xi_max = 10,
                      divergence = c("sqeuclidean", "kl", "idiv"),
                      smoothing = NULL,
                      lambda_method = c("farthest_first", "kth_distance"),
                      order = c("random", "uniform", "fixed"), patience = 20L,
                      max_iter = 1000L, restarts = 1L, verbose = FALSE,
                      chunklet_moves = FALSE) {
  call <- match.call()
  divergence <- match_arg(divergence)
  data <- prepare_divergence_data(x, divergence, smoothing)
  side <- as_side_info(side, n = n_points(data$x), arg = "side")
  xi <- check_xi(xi, "xi")
  xi_max <- check_xi(xi_max, "xi_max", allow_inf = TRUE)
  xi_rate <- check_number(xi_rate, "xi_rate", lower = 0, lower_open = TRUE)
  chunklet_moves <- check_flag(chunklet_moves, "chunklet_moves")
  if (chunklet_moves && inherits(side, "sideclust_labels")) {
    stop_arg("chunklet_moves", "needs pairwise side information; expand the labels with as_constraints(labels, expand = TRUE)")
  }
  fit <- fit_dp_family(data, side, lambda, k, xi, xi_rate, xi_max,
                       match_arg(lambda_method), match_arg(order),
                       patience, max_iter, restarts, verbose, chunklet_moves)
  fit$chunklet_moves <- chunklet_moves
  fit$call <- call
  fit <- finish_fit(fit, x, "rdp_means")
  fit
}

#' @rdname rdp_means
#' @export
dp_means <- function(x, k = NULL, lambda = NULL,
                     divergence = c("sqeuclidean", "kl", "idiv"),
                     smoothing = NULL,
                     lambda_method = c("farthest_first", "kth_distance"),
                     order = c("random", "uniform", "fixed"), max_iter = 1000L,
                     restarts = 1L, verbose = FALSE) {
  call <- match.call()
  data <- prepare_divergence_data(x, match_arg(divergence), smoothing)
  no_weight <- c(must = 0, cannot = 0)
  fit <- fit_dp_family(data, NULL, lambda, k, no_weight, 1, no_weight,
                       match_arg(lambda_method), match_arg(order),
                       1L, max_iter, restarts, verbose)
  fit$call <- call
  fit[c("xi", "xi_schedule", "agreement", "side", "patience")] <- NULL
  fit <- finish_fit(fit, x, "dp_means")
  fit
}

# The shared body of dp_means() and rdp_means(): validated inputs in, fit out.
# With `k`, lambda is searched for k clusters; with neither `k` nor `lambda`,
# the number of clusters is chosen (see choose_dp_k()).
fit_dp_family <- function(data, side, lambda, k, xi, xi_rate, xi_max,
                          lambda_method, order, patience, max_iter, restarts,
                          verbose, chunklet_moves = FALSE) {
  n <- n_points(data$x)
  xt <- data$xt %||% points_for_core(data$x)
  check_lambda_or_k(lambda, k, n)
  patience <- check_count(patience, "patience")
  max_iter <- check_count(max_iter, "max_iter")
  restarts <- check_count(restarts, "restarts", lower = 1L)
  verbose <- check_flag(verbose, "verbose")
  fit_side <- function(lambda, side) {
    dp_family_at(data, xt, side, lambda, xi, xi_rate, xi_max, order, patience,
                 max_iter, restarts, verbose, chunklet_moves)
  }
  start_for_k <- function(k) resolve_lambda(xt, NULL, k, lambda_method, data$divergence)
  if (!is.null(lambda)) {
    fit <- fit_side(check_number(lambda, "lambda", lower = 0), side)
    fit$k_method <- "lambda"
    return(fit)
  }
  if (!is.null(k)) {
    fit <- fit_for_k(function(lambda) fit_side(lambda, side), k, start_for_k(k))
    fit$k_method <- "k"
    return(fit)
  }
  k_max <- default_k_max(n)
  if (!is.null(side)) {
    return(choose_k_heldout(fit_side, side, n, start_for_k, k_max))
  }
  if (data$divergence != "sqeuclidean") {
    stop(sprintf("give `k` or `lambda`: without side information the number of clusters is chosen only for divergence \"sqeuclidean\" (by BIC), not \"%s\"",
                 data$divergence), call. = FALSE)
  }
  choose_k_bic(function(lambda) fit_side(lambda, NULL), data, start_for_k, k_max)
}

# `k` and `lambda`: at most one, k a count of at most n.
check_lambda_or_k <- function(lambda, k, n) {
  if (!is.null(lambda) && !is.null(k)) {
    stop("give only one of `lambda` and `k`", call. = FALSE)
  }
  if (!is.null(lambda)) check_number(lambda, "lambda", lower = 0)
  if (!is.null(k)) {
    k <- check_count(k, "k", lower = 1L)
    if (k > n) stop_arg("k", sprintf("(%d) is larger than the number of points (%d)", k, n))
  }
  invisible(NULL)
}

# One DP-means / RDP-means fit at a given lambda.
dp_family_at <- function(data, xt, side, lambda, xi, xi_rate, xi_max, order,
                         patience, max_iter, restarts, verbose, chunklet_moves) {
  n <- n_points(data$x)
  # Centres are dense (k x p, about 4 copies in the core): cap k so that they
  # stay within options(sideclust.max_center_bytes) (2 GB by default).
  bytes <- getOption("sideclust.max_center_bytes", 2e9)
  max_clusters <- as.integer(max(2, min(.Machine$integer.max, floor(bytes / (32 * n_coordinates(data$x))))))
  options <- list(lambda = lambda, xi = xi, xi_rate = xi_rate, xi_max = xi_max,
                  max_clusters = max_clusters,
                  patience = patience, max_iter = max_iter,
                  random_order = order != "fixed", uniform_order = order == "uniform",
                  chunklet_moves = chunklet_moves, xi_unit = data$xi_unit %||% 1,
                  divergence = data$divergence, verbose = verbose)
  # A fixed visiting order makes every run the same: one is enough.
  runs <- if (order != "fixed") restarts else 1L
  res <- best_run(runs, function(r) .rdp_means_cpp(xt, side, options),
                  function(run) final_value(run$objective))
  centers <- t(res$centers)
  dimnames(centers) <- list(NULL, coordinate_names(data$x))
  list(
    cluster = res$cluster, k = res$k, centers = centers,
    size = tabulate(res$cluster, res$k), lambda = lambda,
    xi = stats::setNames(res$xi, c("must", "cannot")),
    objective = res$objective, k_trace = res$k_trace, changes = res$changes,
    iterations = res$iterations, converged = res$converged,
    agreement = res$agreement, divergence = data$divergence,
    smoothing = data$smoothing, order = order, patience = patience,
    xi_schedule = list(start = xi, rate = xi_rate, max = xi_max),
    side = side, n = n, restarts = runs
  )
}

#' Choose DP-means' lambda from a rough number of clusters
#'
#' `"farthest_first"` is Kulis & Jordan's heuristic: starting from the global
#' mean, add `k` times the point farthest from the points chosen so far;
#' `lambda` is that largest distance in round `k`. `"kth_distance"` is the
#' variant of the TVClust authors' code: the `k`-th largest distance to the
#' global mean. Distances are the chosen Bregman divergence, so `lambda` is on
#' the scale [dp_means()] and [rdp_means()] compare it with.
#'
#' A new cluster opens only when a point is strictly farther than `lambda`
#' from every centre (Kulis & Jordan's rule). On data where many points share
#' the largest distance to the mean, such as the grid of [balance], both
#' heuristics can return that largest distance, and DP-means then keeps a
#' single cluster; give `lambda` directly in such cases.
#'
#' @inheritParams rdp_means
#' @param k A rough number of clusters, between 1 and `nrow(x)`.
#' @param method `"farthest_first"` or `"kth_distance"`.
#' @return A single non-negative number.
#' @examples
#' dp_lambda(scale(iris[, 1:4]), k = 3)
#' dp_lambda(scale(iris[, 1:4]), k = 3, method = "kth_distance")
#' @export
dp_lambda <- function(x, k, method = c("farthest_first", "kth_distance"),
                      divergence = c("sqeuclidean", "kl", "idiv"),
                      smoothing = NULL) {
  data <- prepare_divergence_data(x, match_arg(divergence), smoothing)
  resolve_lambda(data$xt %||% points_for_core(data$x), NULL, k, match_arg(method), data$divergence)
}

resolve_lambda <- function(xt, lambda, k, method, divergence) {
  if (is.null(lambda) && is.null(k)) {
    stop("give `lambda`, or `k` to derive lambda from a number of clusters",
         call. = FALSE)
  }
  if (!is.null(lambda) && !is.null(k)) {
    stop("give only one of `lambda` and `k`", call. = FALSE)
  }
  if (!is.null(lambda)) return(check_number(lambda, "lambda", lower = 0))
  k <- check_count(k, "k", lower = 1L)
  n <- if (inherits(xt, "sideclust_sparse_points")) xt$n else ncol(xt)
  if (k > n) {
    stop_arg("k", sprintf("(%d) is larger than the number of points (%d)", k, n))
  }
  lambda <- .dp_lambda_cpp(xt, k, method, divergence)
  if (!is.finite(lambda)) {
    stop_arg("x", "gives a lambda that is not finite for this `k`; scale() the data or give `lambda`")
  }
  lambda
}

# The divergence per unit of the pair weights xi (see Count data in
# ?rdp_means): KL on normalized rows is the multinomial log-likelihood over
# the row's count, so one unit of weight is 1 / the rows' mean count; the
# I-divergence and the squared Euclidean distance take the weights as given.
count_xi_unit <- function(divergence, row_totals = NULL) {
  if (divergence == "kl") 1 / mean(row_totals) else 1
}

# Validate x for the divergence and transform it to the space the core works in.
prepare_divergence_data <- function(x, divergence, smoothing, arg = "x",
                                    min_rows = 2L) {
  if (is_sparse_input(x)) return(prepare_sparse_divergence_data(x, divergence, smoothing, arg, min_rows))
  # one pass over x checks it and, for the squared Euclidean distance (whose
  # core reads x as it is), writes the transpose the core reads
  pts <- scan_points(x, arg, min_rows = min_rows, spread = divergence == "sqeuclidean",
                     transpose = divergence == "sqeuclidean")
  if (divergence == "sqeuclidean") {
    return(list(x = pts$x, xt = pts$xt, divergence = divergence, smoothing = NULL))
  }
  x <- pts$x
  if (pts$lo < 0) {
    rows <- which(rowSums(x < 0) > 0)
    stop_arg(arg, sprintf("has negative values (%s), but divergence \"%s\" needs counts or other non-negative data",
                          describe_positions(rows), divergence))
  }
  if (is.null(smoothing)) smoothing <- 0.3
  smoothing <- check_number(smoothing, "smoothing", lower = 0)
  x <- x + smoothing
  if (divergence == "kl") {
    total <- rowSums(x)
    if (any(total <= 0)) {
      stop_arg(arg, sprintf("has all-zero %s; use `smoothing` > 0 with divergence \"kl\"",
                            describe_positions(which(total <= 0))))
    }
    x <- x / total
  }
  list(x = x, divergence = divergence, smoothing = smoothing,
       xi_unit = count_xi_unit(divergence, if (divergence == "kl") total))
}


# The same for sparse x, which stays sparse: smoothing becomes the points'
# offset and the KL normalization their scale (see sparse_points()), so the
# core sees the very points the dense branch makes, without storing them.
prepare_sparse_divergence_data <- function(x, divergence, smoothing, arg, min_rows) {
  sp <- check_sparse_scale(sparse_points(x, arg, min_rows), arg,
                           spread = divergence == "sqeuclidean")
  if (divergence == "sqeuclidean") {
    return(list(x = sp, divergence = divergence, smoothing = NULL))
  }
  if (length(rows <- sparse_negative_rows(sp))) {
    stop_arg(arg, sprintf("has negative values (%s), but divergence \"%s\" needs counts or other non-negative data",
                          describe_positions(rows), divergence))
  }
  if (is.null(smoothing)) smoothing <- 0.3
  smoothing <- check_number(smoothing, "smoothing", lower = 0)
  sp$offset <- smoothing
  if (divergence == "kl") {
    total <- sp$row_sums + sp$p * smoothing
    if (any(total <= 0)) {
      stop_arg(arg, sprintf("has all-zero %s; use `smoothing` > 0 with divergence \"kl\"",
                            describe_positions(which(total <= 0))))
    }
    sp$scale <- 1 / total
  }
  list(x = sp, divergence = divergence, smoothing = smoothing,
       xi_unit = count_xi_unit(divergence, if (divergence == "kl") total))
}
