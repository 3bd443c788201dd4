#' Kernel RDP-means: relational DP-means in a kernel feature space
#'
#' Minimizes the RDP-means objective of [rdp_means()] with the squared
#' distance measured between feature vectors \eqn{\phi(x_i)} of a kernel
#' \eqn{K_{ij} = \phi(x_i)^\top\phi(x_j)}, so that clusters need not be convex
#' (rings, moons, spirals):
#' \deqn{\sum_c \sum_{i \in c} \|\phi(x_i) - m_c\|^2 - \xi_1 \sum_{\textrm{kept must-links}} c_{ij}
#'   + \xi_2 \sum_{\textrm{violated cannot-links}} c_{ij} + \lambda K,}{sum_c sum_(i in c)
#'   |phi(x_i) - m_c|^2 - xi1 (kept must-link weight) + xi2 (violated cannot-link weight) + lambda K,}
#' where \eqn{m_c} is the mean of cluster \eqn{c} in feature space, each pair
#' is counted once, and the data term equals
#' \eqn{\sum_c (\sum_{i \in c} K_{ii} - S_c / n_c)}{sum_c (sum_(i in c) K_ii - S_c / n_c)}
#' with \eqn{S_c} the sum of \eqn{K} over the pairs of cluster \eqn{c}.
#' With `kernel = "linear"` this is exactly the objective of [rdp_means()]
#' (squared Euclidean divergence), and with `side = NULL` it is kernel
#' DP-means (Kulis & Jordan 2012).
#'
#' @section Algorithm:
#' Points are visited one at a time (in a new random order every sweep by
#' default) and each moves to the cluster, or to a new cluster of its own,
#' that lowers the objective most, if any does. The change is computed
#' exactly from per-cluster kernel sums kept up to date after every move (as
#' in weighted kernel k-means, Dhillon, Guan & Kulis 2004, with Hartigan's
#' exact update of the means): moving a point into a cluster of \eqn{n_c}
#' points costs \eqn{n_c/(n_c+1)} times its squared distance to that
#' cluster's mean, leaving one gains the analogous amount, opening a cluster
#' costs `lambda` and emptying one gains it. So at fixed weights the
#' objective never increases, and a run ends at a local optimum under single
#' moves. This holds for any symmetric kernel matrix, positive semi-definite
#' or not (a k-NN graph, say). The side-information weights follow the
#' schedule of [rdp_means()]: they start at `xi`, are multiplied by
#' `xi_rate` after every sweep up to `xi_max`, and the run stops when no
#' point moved for `patience` sweeps, or after one sweep without a move once
#' the weights stopped growing.
#'
#' Single moves cannot join two parts of one cluster (each point is better
#' off with its own part), which a start with too many clusters needs. So
#' with `merge_moves = TRUE`, after every sweep in which no point moved,
#' whole clusters are merged greedily, the pair that lowers the objective
#' most first, while any pair does; this costs one more pass over the kernel
#' (the sums between every two clusters) and O(k^2) memory (skipped beyond
#' 2000 clusters), and keeps the descent property.
#'
#' @section Spectral start:
#' Khashabi et al. (2015, Section 4.7) relax the objective into the trace
#' maximization of \eqn{Y^\top (K - \lambda I + \xi_1 E^+ - \xi_2 E^-) Y}{Y'(K
#' - lambda I + xi1 E+ - xi2 E-)Y} over orthonormal \eqn{Y}, whose solution
#' is the eigenvectors of \eqn{K + \xi_1 E^+ - \xi_2 E^-}{K + xi1 E+ - xi2 E-}
#' with eigenvalue above \eqn{\lambda} (Kulis & Jordan 2012, Theorem 5.2;
#' \eqn{E^\pm} hold the confidences of the must- / cannot-links). In that
#' relaxation the side terms are divided by the cluster sizes, so it is an
#' approximation of the objective above and serves as a start only:
#' `init = "spectral"` takes the eigenvectors with eigenvalue above
#' `lambda` (at most `spectral_rank` of them, at the weights `xi_max`, or
#' `xi` when the weights do not grow or the cap is infinite), normalizes the
#' rows to unit length and rounds them to a partition by k-means (Ng, Jordan
#' & Weiss 2002), one cluster per eigenvector; the moves then start from it.
#' `init = "one"` starts from a single cluster, as Algorithm 1 of
#' Khashabi et al. does. Partial labels enter the spectral start without
#' being expanded into pairs.
#'
#' @section Kernels, memory and time:
#' * `"rbf"`: \eqn{K_{ij} = \exp(-\|x_i - x_j\|^2 / (2\sigma^2))}{K_ij =
#'   exp(-|x_i - x_j|^2 / (2 sigma^2))}, evaluated on the fly: O(n p) memory,
#'   O(n^2 p) time per sweep. `sigma = NULL` takes the median heuristic: the
#'   median Euclidean distance between the points (among at most 1000
#'   evenly spaced rows). The median suits blob-like data; non-convex
#'   shapes (rings, moons) need a `sigma` near the gap between them.
#' * `"linear"`: \eqn{K = XX^\top}{K = XX'} through per-cluster sums of the
#'   points: O(n k p) time per sweep, like [rdp_means()].
#' * `"precomputed"`: `x` is the n x n kernel matrix itself, symmetric,
#'   dense or a sparse `Matrix` (e.g. a symmetrized k-nearest-neighbour
#'   graph, with ones on the diagonal): O(n^2) time per sweep when dense,
#'   O(nonzeros) when sparse.
#'
#' `"rbf"` and `"linear"` are computed on the centred points (the column
#' means subtracted, in fitting and in [predict()][predict.kernel_rdp_means]),
#' so a common shift of the data, however large, leaves the clusters as they
#' are; `within` is then the linear kernel's sum over the centred points.
#'
#' The spectral start forms an n x n matrix only when `n <= 1000` and the
#' kernel is not sparse (base R's `eigen()`, O(n^3) time); otherwise it
#' calls the Lanczos solver of the RSpectra package (suggested, not
#' required) with kernel products computed blockwise on the fly: O(n^2 p)
#' time per product for `"rbf"`, O(n p) for `"linear"`, O(nonzeros) for a
#' sparse kernel. Without RSpectra, up to n = 3000 falls back to the dense
#' solver (72 MB at n = 3000); larger data needs RSpectra or `init = "one"`.
#' For scale: on 5000 points of [simulate_patterns()]'s rings (RBF, p = 2,
#' 2 shared cores under load), a fit took 32 s from `init = "one"` and 95 s
#' with the spectral start, most of it in the Lanczos products.
#'
#' @section Large data: approximations of the RBF kernel:
#' The exact `"rbf"` kernel costs O(n^2 p) time per sweep, so for larger
#' data `approximation` replaces it by one whose sweep costs O(n k m) or
#' O(n k + nonzeros), and whose memory is O(n m), never n x n:
#' * `"nystrom"` (the default beyond 5000 points): `landmarks` = m points
#'   chosen by k-means++ seeding in the kernel's feature space (Arthur &
#'   Vassilvitskii 2007), and the features \eqn{z(x) = \Lambda^{-1/2}U^\top
#'   K(L, x)}{z(x) = Lambda^(-1/2) U' K(L, x)} from the eigenpairs of the
#'   landmarks' kernel matrix \eqn{K(L, L)} (Williams & Seeger 2001), so
#'   \eqn{z(x)^\top z(y) = K(x, L) K(L, L)^{+} K(L, y)}{z(x)'z(y) = K(x, L)
#'   K(L, L)^+ K(L, y)}: exact when the landmarks are all the points, and
#'   close to `K` when they cover the data at the scale of `sigma`
#'   (default `min(n, 100)`); drawn from R's random numbers.
#' * `"rff"`: m random Fourier features \eqn{\sqrt{2/m}\cos(W^\top x + b)}{sqrt(2/m)
#'   cos(W'x + b)} (Rahimi & Recht 2007), whose inner products approach the
#'   RBF kernel as m grows (error of order \eqn{1/\sqrt{m}}{1/sqrt(m)};
#'   default `min(n, 300)`); drawn from R's random numbers.
#' * `"knn"`: the sparse k-nearest-neighbour kernel: \eqn{K_{ij}}{K_ij} is the RBF
#'   value when j is among the `neighbours` nearest points of i or i among
#'   those of j, 0 otherwise (ones on the diagonal). The neighbours come from
#'   the HNSW graphs (Malkov & Yashunin 2018) of the RcppHNSW package
#'   (suggested, not required: an error says so when it is missing). HNSW was
#'   chosen over Annoy (RcppAnnoy) for its higher recall at the same query
#'   time in published approximate nearest-neighbour benchmarks, for a search
#'   effort (`ef`) set per query rather than fixed by a number of trees at
#'   build time, and because it is packaged for Debian (r-cran-rcpphnsw) as
#'   well as on CRAN. The search is single-threaded, so a fit is the same
#'   under the same [set.seed()]; in up to 3 dimensions it uses sparser
#'   HNSW graphs (`M = 8`, build effort 32, search effort
#'   `max(16, neighbours + 6)`), which still find the exact neighbours there
#'   at half the cost; beyond, `M = 16`, build effort 64 and search effort
#'   `max(64, 2 * neighbours + 2)`.
#'   `lambda` is on another scale for this kernel, see Choosing lambda.
#'
#' With Nystrom or random features, kernel RDP-means on `K` is kernel
#' RDP-means on the linear kernel of the features: the same objective
#' (squared distances to the cluster means in feature space, `lambda` and
#' the pair weights) minimized by the same moves as the exact kernel, with
#' the per-cluster sums of the features kept up to date, so a sweep costs
#' O(n k m). (The sweeps of [rdp_means()] on the features would minimize the
#' same objective by Lloyd-type batch updates, which end at other local
#' optima.) The spectral start uses the features too: the eigenvectors of
#' \eqn{ZZ^\top + \xi_1E^+ - \xi_2E^-}{ZZ' + xi1 E+ - xi2 E-} are
#' approximated within the span of the features' left singular vectors
#' (exact without side information), an m x m eigenproblem after O(n m^2)
#' work. The `"knn"` graph enters the spectral start as one sparse matrix
#' with the pairs, through RSpectra's Lanczos solver at a relative tolerance
#' of 1e-3 (the graph's largest eigenvalues lie close together, and the
#' start needs only the span of its eigenvectors): O(nonzeros) per product,
#' never an n x n matrix, so both starts run at a million points.
#' [predict()][predict.kernel_rdp_means]
#' computes the same approximate kernel for new points (their features, or
#' their `neighbours` nearest training points).
#'
#' `approximation = "auto"` takes the exact kernel up to
#' `getOption("sideclust.kernel_exact_max", 5000)` points and Nystrom beyond;
#' `kernel = "precomputed"` (the user's own kernel) and `"linear"` are
#' always exact. `lambda` grows with the density of the points as for the
#' exact kernel with Nystrom and random features, not with `"knn"` (see
#' Choosing lambda).
#'
#' @section Choosing lambda:
#' A cluster \eqn{c} contributes \eqn{-S_c / n_c}{-S_c / n_c} to the
#' objective, so opening a cluster pays when the clusters' mean kernel mass
#' per point grows by more than `lambda`. With eigenvalues \eqn{\mu_1 \ge
#' \mu_2}{mu_1 >= mu_2} of `K` and \eqn{S}{S} the sum of all of `K`, no
#' partition into two or more clusters lowers the data term of one cluster
#' by more than \eqn{\mu_1 - S/n + (k - 1)\mu_2}{mu_1 - S/n + (k - 1) mu_2}
#' (Ky Fan's inequality), so at `lambda` \eqn{\ge \mu_1 + \mu_2 - S/n}{>=
#' mu_1 + mu_2 - S/n} the kernel alone makes one cluster the best
#' partition. When a fit at a given `lambda` ends with one cluster and
#' `lambda` is at or above that bound (computed from the features'
#' eigenvalues, or bounded by twice the largest row sum of `K` less the
#' mean one when `K` has no negative entries), a warning names `lambda` and
#' the scale to use.
#' * RBF (exact, `"nystrom"`, `"rff"`): a point's kernel mass grows with the
#'   number of points within `sigma` of it, so `lambda` grows in proportion
#'   to n at a fixed shape: a value chosen at small n is scaled by the ratio
#'   of the sizes.
#' * `"knn"`: the kernel mass of a point is its weighted degree in the
#'   neighbour graph: at most `2 * neighbours + 1`, and near
#'   `neighbours + 1` or above when the neighbours are close at the scale
#'   of `sigma`, whatever n. A new cluster gains about the mean
#'   degree less its cut per point, so `lambda` is on that scale and does not
#'   grow with n. Well below the mean degree, pieces of a cluster whose cut
#'   is small pay for themselves; from about the mean degree to about twice
#'   it, the kernel's gain is used up and the side information decides
#'   which clusters stay apart; beyond the bound above the fit is one
#'   cluster. On [simulate_patterns()]'s moons with 10 neighbours and 1e4
#'   random pairs, `lambda = 20` (about 1.5 times the mean degree) found the
#'   two moons at 1e4 and 1e5 points; at 1e6 points, with one pair per 100
#'   points, it did not (two clusters that are not the moons), and neither
#'   did smaller values (more clusters): the kernel alone has no preferred
#'   number of clusters, so weak side information leaves it undecided.
#'
#' `k` searches `lambda` for a number of clusters instead, at the cost of
#' several fits.
#'
#' @inheritParams rdp_means
#' @param x Data (a numeric matrix or data.frame, one row per point) for the
#'   `"rbf"` and `"linear"` kernels; the n x n kernel matrix (a symmetric
#'   numeric matrix or `Matrix`) for `kernel = "precomputed"`.
#' @param k The number of clusters: `lambda` is searched for it, starting
#'   from Kulis & Jordan's farthest-first heuristic (see [dp_lambda()]) in
#'   feature space, as in [rdp_means()] (section Number of clusters: at most
#'   `getOption("sideclust.lambda_search_fits", 30)` fits, each from the
#'   same random state, the nearest number with a message when none gives
#'   `k`). The spectral start's eigenvectors are computed once per search.
#'   With neither `k` nor `lambda`, the number of clusters is chosen by
#'   held-out side information as in [rdp_means()] (5 folds, k from 1 to
#'   `min(n, 20)`: about 100 to 200 fits, so slow on large data); without side
#'   information give `k` or `lambda`.
#' @param lambda Penalty for opening a cluster, on the scale of squared
#'   distances in feature space. With `"rbf"` a point is at squared distance
#'   at most 2 from any cluster mean, and about 1 from the mean of a wide
#'   cluster, so `lambda` below 1 makes many single points clusters of their
#'   own; the farthest-first heuristic then gives values near 1, too small
#'   for non-convex shapes. Splitting a cluster in two gains about the
#'   kernel mass across the cut, which grows with the density of the points,
#'   so on denser data (larger n) `lambda` has to grow too, as for DP-means.
#'   Between 1 and 2 suited 300-point [simulate_patterns()] (`vignette("performance")`).
#'   With `approximation = "knn"` `lambda` is on the scale of a point's
#'   weighted degree in the neighbour graph and does not grow with n; see
#'   Choosing lambda.
#' @param kernel `"rbf"`, `"linear"` or `"precomputed"`, see Kernels.
#' @param sigma Bandwidth of the `"rbf"` kernel; `NULL` for the median
#'   heuristic.
#' @param init `"spectral"` or `"one"`, see Spectral start.
#' @param spectral_rank The most eigenvectors the spectral start computes,
#'   hence the most clusters it starts with.
#' @param merge_moves Also merge whole clusters when no point moves, see
#'   Algorithm.
#' @param order `"random"` visits the points in a new uniformly random order
#'   every sweep (reproducible with [set.seed()]); `"fixed"` visits them in
#'   row order.
#' @param approximation `"auto"`, `"exact"`, `"nystrom"`, `"rff"` or
#'   `"knn"`: how the `"rbf"` kernel is computed, see Large data.
#' @param landmarks For `"nystrom"`: the number of landmarks (at most n;
#'   default `min(n, 100)`); for `"rff"`: the number of random features
#'   (default `min(n, 300)`). Memory and time per sweep grow in proportion.
#' @param neighbours For `"knn"`: the number of nearest neighbours of every
#'   point kept in the graph kernel (below n).
#' @param restarts Number of runs (random visiting orders and k-means
#'   roundings of the spectral start); the lowest final objective is kept.
#' @return An object of class `c("kernel_rdp_means", "sideclust")`, a list with
#'   \item{cluster, k, size}{clusters `1..k` numbered by their first point,
#'     their number and sizes.}
#'   \item{centers}{for `"linear"` only: the `k` x `p` cluster means.}
#'   \item{within}{\eqn{S_c}, the sum of the kernel over the pairs (both
#'     orders and the diagonal) of every cluster: with `size`, all that
#'     [predict()][predict.kernel_rdp_means] needs besides the kernel to the
#'     training points.}
#'   \item{lambda, xi, sigma, kernel, approximation}{the penalty, the
#'     weights of the last sweep, the bandwidth (`"rbf"`), the kernel and
#'     how it was computed.}
#'   \item{feature_map, feature_sums}{approximations only: what places new
#'     points in the approximate kernel (landmarks and projection, random
#'     features, or the number of neighbours), and the k x m sums of the
#'     features over every cluster (low-rank maps).}
#'   \item{k_method, lambda_search, k_selection}{how `lambda` was set, as in
#'     [rdp_means()].}
#'   \item{objective, data_term}{the objective and its data term after every
#'     sweep (at that sweep's weights).}
#'   \item{k_trace, changes, iterations, converged}{as in [rdp_means()].}
#'   \item{agreement}{total confidence of kept and broken constraints.}
#'   \item{init, spectral_k, merge_moves, order, patience, xi_schedule, side, n, restarts,
#'     call, data}{the settings, the number of clusters of the spectral start,
#'     the side information and the data (the kernel matrix for
#'     `"precomputed"`).}
#' @references
#' Khashabi, D., Wieting, J., Liu, J. Y. and Liang, F. (2015). Clustering with
#' side information: from a probabilistic model to a deterministic algorithm.
#' arXiv:1508.06235.
#'
#' Kulis, B. and Jordan, M. I. (2012). Revisiting k-means: new algorithms via
#' Bayesian nonparametrics. ICML.
#'
#' Dhillon, I. S., Guan, Y. and Kulis, B. (2004). Kernel k-means, spectral
#' clustering and normalized cuts. KDD.
#'
#' Ng, A. Y., Jordan, M. I. and Weiss, Y. (2002). On spectral clustering:
#' analysis and an algorithm. NIPS.
#'
#' Williams, C. K. I. and Seeger, M. (2001). Using the Nystrom method to
#' speed up kernel machines. NIPS.
#'
#' Rahimi, A. and Recht, B. (2007). Random features for large-scale kernel
#' machines. NIPS.
#'
#' Arthur, D. and Vassilvitskii, S. (2007). k-means++: the advantages of
#' careful seeding. SODA.
#'
#' Malkov, Y. A. and Yashunin, D. A. (2018). Efficient and robust approximate
#' nearest neighbor search using hierarchical navigable small world graphs.
#' IEEE TPAMI.
#' @seealso [rdp_means()], [simulate_patterns()], [predict.kernel_rdp_means()].
#' @examples
#' set.seed(1)
#' d <- simulate_patterns(200, "rings")
#' side <- sample_constraints(d$label, rate = 0.01)
#' fit <- kernel_rdp_means(d$x, side, lambda = 1.5, sigma = 0.5)
#' table(fit$cluster, d$label)
#' lin <- rdp_means(d$x, side, k = 2)
#' c(kernel = f_measure(d$label, fit$cluster), linear = f_measure(d$label, lin$cluster))
#' @export
kernel_rdp_means <- function(x, side, k = NULL, lambda = NULL,
                             kernel = c("rbf", "linear", "precomputed"), sigma = NULL,
                             xi = 0.001, xi_rate = 2, xi_max = 10,
                             init = c("spectral", "one"), spectral_rank = 20L,
                             merge_moves = TRUE, order = c("random", "fixed"),
                             patience = 20L, max_iter = 1000L, restarts = 1L,
                             approximation = c("auto", "exact", "nystrom", "rff", "knn"),
                             landmarks = NULL, neighbours = 10L,
                             verbose = FALSE) {
  call <- match.call()
  kernel <- match_arg(kernel)
  init <- match_arg(init)
  order <- match_arg(order)
  approximation <- resolve_approximation(match_arg(approximation), kernel,
                                         if (kernel == "precomputed") 0L else NROW(x))
  kern <- if (approximation == "exact") prepare_kernel(x, kernel, sigma) else
    prepare_approximate_kernel(x, approximation, sigma, landmarks, neighbours)
  n <- kern$n
  side <- as_side_info(side, n = n, arg = "side")
  xi <- check_xi(xi, "xi")
  xi_max <- check_xi(xi_max, "xi_max", allow_inf = TRUE)
  xi_rate <- check_number(xi_rate, "xi_rate", lower = 0, lower_open = TRUE)
  patience <- check_count(patience, "patience")
  max_iter <- check_count(max_iter, "max_iter")
  restarts <- check_count(restarts, "restarts", lower = 1L)
  spectral_rank <- check_count(spectral_rank, "spectral_rank", lower = 1L)
  verbose <- check_flag(verbose, "verbose")
  merge_moves <- check_flag(merge_moves, "merge_moves")
  check_lambda_or_k(lambda, k, n)
  no_side_weight <- c(must = 0, cannot = 0)  # kernel DP-means
  spectral_xi <- if (xi_rate > 1 && all(is.finite(xi_max))) xi_max else xi
  spectra <- spectral_cache(kern, spectral_xi, spectral_rank)
  fit_side <- function(lambda, side) {
    w <- if (is.null(side)) list(xi = no_side_weight, xi_max = no_side_weight) else list(xi = xi, xi_max = xi_max)
    spectral <- if (init == "spectral") spectra(side, lambda)
    options <- list(lambda = lambda, xi = w$xi, xi_rate = xi_rate, xi_max = w$xi_max,
                    patience = patience, max_iter = max_iter,
                    random_order = order == "random", merge_moves = merge_moves,
                    verbose = verbose)
    # One run per restart, each on its own random stream, through the user's plan.
    res <- best_run(restarts, function(r) {
      start <- if (is.null(spectral)) rep(1L, n) else round_spectral(spectral)
      run <- .kernel_rdp_means_cpp(kern$spec, side, start, options)
      run$spectral_k <- max(start)
      run
    }, function(run) final_value(run$objective))
    res$lambda <- lambda
    res$xi_start <- w$xi
    res$xi_max <- w$xi_max
    res
  }
  start_for_k <- function(k) resolve_kernel_lambda(kern, NULL, k)
  res <- if (!is.null(lambda)) {
    fit_side(check_number(lambda, "lambda", lower = 0), side)
  } else if (!is.null(k)) {
    fit_for_k(function(lambda) fit_side(lambda, side), k, start_for_k(k))
  } else if (!is.null(side)) {
    choose_k_heldout(fit_side, side, n, start_for_k)
  } else {
    stop("give `k` or `lambda`: without side information kernel_rdp_means() cannot choose the number of clusters",
         call. = FALSE)
  }
  if (!res$converged) warn_not_converged("kernel_rdp_means", max_iter)
  if (!is.null(lambda) && res$k == 1L) warn_lambda_forces_one(kern, res$lambda, approximation)
  fit <- list(
    cluster = res$cluster, k = res$k, size = res$size, within = res$within,
    lambda = res$lambda, xi = stats::setNames(res$xi, c("must", "cannot")),
    sigma = if (approximation == "exact") kern$spec$sigma else kern$sigma, kernel = kernel,
    approximation = approximation,
    objective = res$objective, data_term = res$data_term,
    k_trace = res$k_trace, changes = res$changes,
    iterations = res$iterations, converged = res$converged,
    agreement = res$agreement, init = init, spectral_k = res$spectral_k,
    merge_moves = merge_moves, order = order, patience = patience,
    xi_schedule = list(start = res$xi_start, rate = xi_rate, max = res$xi_max),
    side = side, n = n, restarts = restarts,
    k_method = if (!is.null(lambda)) "lambda" else if (!is.null(k)) "k" else res$k_method
  )
  fit$lambda_search <- res$lambda_search  # (absent when NULL)
  fit$k_selection <- res$k_selection
  fit$call <- call
  if (approximation != "exact") {
    fit$feature_map <- kern$map
    if (kern$map$type != "knn") {
      # k x m sums of the features over each cluster, for predict()
      # (a dense n x k indicator: a sparse one would make Matrix copy the m x n features)
      indicator <- matrix(0, n, fit$k)
      indicator[cbind(seq_len(n), fit$cluster)] <- 1
      fit$feature_sums <- unname(t(kern$spec$x %*% indicator))
    }
  }
  if (kernel == "linear") {
    fit$centers <- rowsum(kern$data, fit$cluster, reorder = TRUE) / fit$size
    rownames(fit$centers) <- NULL
  }
  finish_fit(fit, kern$data, "kernel_rdp_means")
}

# The spectral start's eigenvectors for a side information object, computed
# once per side object and cut at each lambda (those with eigenvalue above
# lambda), so a search over lambda decomposes the matrix once.
spectral_cache <- function(kern, xi, rank) {
  sides <- list()
  spectra <- list()
  function(side, lambda) {
    hit <- which(vapply(sides, identical, logical(1), side))[1L]
    if (is.na(hit)) {
      sides[length(sides) + 1L] <<- list(side)  # keeps a NULL side too
      spectra[length(spectra) + 1L] <<- list(spectral_vectors(kern, side, -Inf, xi, rank))
      hit <- length(sides)
    }
    sp <- spectra[[hit]]
    keep <- sp$values > lambda
    list(vectors = sp$vectors[, keep, drop = FALSE], values = sp$values[keep])
  }
}

resolve_kernel_lambda <- function(kern, lambda, k) {
  if (is.null(lambda) && is.null(k)) {
    stop("give `lambda`, or `k` to derive lambda from a number of clusters", call. = FALSE)
  }
  if (!is.null(lambda) && !is.null(k)) stop("give only one of `lambda` and `k`", call. = FALSE)
  if (!is.null(lambda)) return(check_number(lambda, "lambda", lower = 0))
  k <- check_count(k, "k", lower = 1L)
  if (k > kern$n) {
    stop_arg("k", sprintf("(%d) is larger than the number of points (%d)", k, kern$n))
  }
  .kernel_lambda_cpp(kern$spec, k)
}

# The objective of kernel RDP-means for a given partition (1-based), at
# weights xi: for the tests and for comparing fits.
kernel_rdp_objective <- function(x, cluster, side = NULL, lambda, xi = c(0, 0),
                                 kernel = "rbf", sigma = NULL) {
  kern <- prepare_kernel(x, kernel, sigma)
  cluster <- as.integer(factor(cluster))
  k <- max(cluster)
  st <- .kernel_cluster_stats_cpp(kern$spec, cluster, k)
  data <- sum(st$diag - st$within / st$size)
  xi <- check_xi(xi, "xi")
  side <- as_side_info(side, kern$n, "side")
  side_term <- 0
  if (!is.null(side)) {
    agree <- side_agreement_table(side, cluster)
    kept_must <- agree$weight[1] - agree$weight_violated[1]
    side_term <- -xi[["must"]] * kept_must + xi[["cannot"]] * agree$weight_violated[2]
  }
  data + lambda * k + side_term
}
