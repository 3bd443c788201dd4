#' k-means as an information bottleneck (soft k-means with a trade-off beta)
#'
#' Still, Bialek & Bottou's geometric clustering with the information
#' bottleneck: the indices \eqn{x} of the data vectors \eqn{y_x} are
#' compressed into clusters \eqn{C} that keep information about the vectors'
#' location. The iterative IB is run with kernel class distributions
#' \eqn{p(y|c)} around prototypes \eqn{y_c}; it gives soft memberships
#' \eqn{p(c|x)} for finite `beta` and becomes Lloyd's k-means in the hard
#' limit `beta = Inf`.
#'
#' @section The iteration:
#' With \eqn{p(x) = 1/N}, \eqn{d} the squared Euclidean distance and
#' \eqn{\lambda = -1/\beta}{lambda = -1/beta} (so `beta` \eqn{> 0} and TR-09-12's IB functional (27) is \eqn{L_{max} = I(C;Y) - I(C;X)/\beta}{Lmax
#' = I(C;Y) - I(C;X)/beta}), each iteration \eqn{n = 1, 2, \dots} computes,
#' from the previous prototypes, \eqn{p(c)} and normalizers:
#' \deqn{p_n(c|x) \propto p_{n-1}(c) \exp(-\beta [d(y_x, y_c^{(n-1)})/s +
#'   \log Z_{n-1}(c, s)])}{p_n(c|x) ~ p_{n-1}(c) exp(-beta [d(y_x,
#'   y_c)/s + log Z_{n-1}(c, s)])}
#' (equation (29) with the kernel \eqn{p(y|c) = \exp(-d(y, y_c)/s) / Z(c,
#' s)} of (32)/(34) raised to the power \eqn{-1/\lambda = \beta}), then
#' \eqn{p_n(c) = \frac{1}{N}\sum_x p_n(c|x)}{p_n(c) = mean_x p_n(c|x)} (31)
#' and the prototypes (33), \eqn{y_c^{(n)} = \sum_x p_n(c|x) y_x / \sum_x
#' p_n(c|x)}, the mean under \eqn{p_n(y|c)} of (30). It starts from
#' \eqn{p_0(c) = 1/k} and \eqn{p_0(y|c)} of (32) around `k` seed prototypes
#' (k-means++ by default). A cluster whose \eqn{p(c)} reaches 0 keeps its
#' prototype and stays empty. `beta = Inf` assigns every point to the live
#' cluster of smallest \eqn{d/s + \log Z(c, s)}{d/s + log Z(c, s)} (first of
#' ties). An iteration costs \eqn{O(N k p)} (two matrix products) and
#' \eqn{O(N k)} memory.
#'
#' @section Decisions where TR-09-12 is ambiguous:
#' * **What \eqn{Z(c, s)} normalizes over** (`normalize`). TR-09-12's limit
#'   argument (35) needs \eqn{p_n(y|\alpha) > p_n(y|c)}{p_n(y|alpha) >
#'   p_n(y|c)} whenever \eqn{y_\alpha}{y_alpha} is the nearest prototype,
#'   i.e. a \eqn{Z(c, s)} that does not depend on \eqn{c}. `"space"` (the
#'   default) normalizes the kernel over \eqn{R^p}: \eqn{Z = (\pi s)^{p/2}}{Z
#'   = (pi s)^(p/2)} for every \eqn{c}, so it cancels from \eqn{p(c|x)}, the
#'   hard limit is exactly Lloyd's k-means, and only `beta / s` matters.
#'   `"data"` normalizes over the \eqn{N} data vectors (the setting
#'   \eqn{p(x) = 1/N} in which (30) is a distribution over them):
#'   \eqn{Z(c, s) = \sum_x \exp(-d(y_x, y_c)/s)}{Z(c, s) = sum_x exp(-d(y_x,
#'   y_c)/s)} depends on \eqn{c} (it is larger for a prototype in a dense
#'   region), so points are pushed away from dense clusters and the hard
#'   limit is *not* k-means; the prototype step (33) then no longer exactly
#'   optimizes the functional, so the objective need not increase.
#' * **\eqn{p(c)} in the update.** TR-09-12's (35) writes \eqn{p_{n+1}(c|x)
#'   \propto p_n(y|c)^{-1/\lambda}}{p_{n+1}(c|x) ~ p_n(y|c)^(-1/lambda)}
#'   without the factor \eqn{p_{n-1}(c)} of (29); the factor is kept (it is
#'   what the IB prescribes and is negligible in the hard limit).
#' * **(30) divides by \eqn{p_{n-1}(c)}**, which would not sum to 1 over
#'   \eqn{y}; the prototype (33) divides by \eqn{\sum_y p_n(y|c)}{sum_y
#'   p_n(y|c)} anyway, so the choice does not change the algorithm.
#' * **The functional.** With distinct data vectors \eqn{Y} is a copy of
#'   \eqn{X} and the empirical \eqn{I(C;Y)} equals \eqn{I(C;X)}, so \eqn{L_{max}}{Lmax}
#'   would be degenerate. The trace records the kernel model's version,
#'   `objective` \eqn{= E[\log p(y_x|c)] - I(C;X)/\beta}{= E[log p(y_x|c)] -
#'   I(C;X)/beta}, where \eqn{E[\log p(y_x|c)] = -E[d]/s - \sum_c p(c) \log
#'   Z(c, s)}{E[log p(y_x|c)] = -E[d]/s - sum_c p(c) log Z(c, s)} replaces
#'   \eqn{I(C;Y)} (it is \eqn{I(C;Y) - H(Y)} for the kernel model up to a
#'   Kullback-Leibler gap, and \eqn{H(Y)} does not depend on the clustering).
#'   With `normalize = "space"` each step of the iteration maximizes it over
#'   one block of variables (\eqn{p(c|x)}, then \eqn{p(c)}, then the
#'   prototypes), so it never decreases; for `beta = Inf` it is
#'   \eqn{-E[d]/s} up to a constant (the k-means cost).
#' * **Scale** `s`: by default the mean squared distance of the points to
#'   their mean, so that `beta` is free of the data's units.
#'
#' @section Soft to hard:
#' With `normalize = "space"` the memberships are those of deterministic
#' annealing at temperature \eqn{s/\beta}{s/beta}. Below the critical value
#' \eqn{\beta_c = s / (2 \lambda_{max})}{beta_c = s / (2 lambda_max)},
#' \eqn{\lambda_{max}}{lambda_max} the largest eigenvalue of the data's
#' covariance (divisor \eqn{N}), the iteration collapses to one effective
#' cluster: all prototypes move to the data mean, every \eqn{p(c|x) = p(c)},
#' \eqn{I(C;X) = 0} and every point has the same hard cluster. Above it the
#' prototypes split, and as `beta` grows the memberships harden towards
#' k-means.
#'
#' @section Convergence and restarts:
#' A run stops when no \eqn{p(c|x)} changes by more than `tol` between two
#' iterations (for `beta = Inf`: when no point changes cluster); the returned
#' state is then, up to `tol`, a fixed point of the iteration. A run that
#' has not stopped after `max_iter` iterations ends with `converged = FALSE`
#' and a warning. Of `restarts` runs the one with the highest final
#' `objective` is kept. Clusters are numbered by their seed (or their row in
#' `start`), none is dropped, and `cluster` is the most probable one
#' (first of ties), so some clusters may hold no point.
#'
#' **Slow convergence near a split.** The iteration converges linearly, and
#' its rate approaches 1 when `beta` is close to a value at which a cluster
#' splits (deterministic annealing's critical slowing down): the first split
#' at \eqn{\beta_c}{beta_c} (see "Soft to hard"), a later one of cluster
#' \eqn{c} near \eqn{s / (2 \lambda_{max}(c))}{s / (2 lambda_max(c))},
#' \eqn{\lambda_{max}(c)}{lambda_max(c)} the largest eigenvalue of the
#' covariance of the data weighted by \eqn{p(c|x)}. Examples with
#' `scale()`d data and `k = 3`: iris at `beta = 2` (two clusters have just
#' split; the largest change of \eqn{p(c|x)} shrinks by a factor of only
#' about 0.993 per iteration) and wine at `beta = 1.5` (just above
#' \eqn{\beta_c \approx 1.38}{beta_c = 1.38}, two prototypes still together
#' and about to split) need 1000-1800 iterations, so the default
#' `max_iter = 500` ends with the warning. This is not a too strict `tol`:
#' after 500 iterations the objective is within \eqn{10^{-6}}{1e-6} of its
#' final value, but memberships can still be \eqn{10^{-2}}{1e-2} away from
#' the fixed point and hard clusters can differ. A stopping rule on the
#' change of the objective would have stopped long before with memberships
#' as far off, and the prototypes move at the same slow rate as the
#' memberships. What to do: raise `max_iter` (an iteration costs
#' \eqn{O(N k p)}{O(N k p)}; 5000 is fast for data of this size) and check
#' `converged`, or move `beta` away from the split. A larger `tol` stops
#' earlier, but near a split the memberships are then about `tol / (1 -
#' rate)`, some 100 times `tol`, from the fixed point. `verbose = TRUE`
#' shows the objective creeping up.
#'
#' @param x Data: a numeric matrix or data.frame, one row per point.
#' @param k Number of clusters (prototypes), between 1 and the number of
#'   distinct rows of `x`. May be omitted when `start` is given.
#' @param beta Trade-off \eqn{\beta = -1/\lambda > 0}{beta = -1/lambda > 0};
#'   `Inf` for the hard limit (k-means).
#' @param s Kernel scale \eqn{s > 0}; `NULL` (default) for the mean squared
#'   distance of the points to their mean.
#' @param normalize What the kernel \eqn{p(y|c)} is normalized over:
#'   `"space"` (\eqn{R^p}, the default) or `"data"` (the \eqn{N} data
#'   vectors); see the section on decisions.
#' @param restarts Number of runs from different seeds; the one with the
#'   highest final objective is kept. Ignored (1) with `start`.
#' @param max_iter Maximum number of iterations per run.
#' @param tol A run stops when no \eqn{p(c|x)} moves more than `tol`.
#' @param init Seeding: `"kmeans++"` or `"random"` (see [cvqe()]). Uses R's
#'   random number generator, so [set.seed()] reproduces the fit.
#' @param start Optional `k` x `ncol(x)` matrix of initial prototypes; then
#'   one run is made and `init` is recorded as `"start"`.
#' @param verbose Print the objective after every iteration.
#' @return An object of class `c("ib_kmeans", "sideclust")`, a list with
#'   \item{cluster}{integer cluster of every point, `1..k`: the most
#'     probable one.}
#'   \item{membership}{`N` x `k` matrix of \eqn{p(c|x)}; rows sum to 1.}
#'   \item{pc}{\eqn{p(c)}, the column means of `membership`.}
#'   \item{centers}{`k` x `p` matrix of prototypes, row `c` for cluster `c`.}
#'   \item{k, k_effective, size}{number of clusters, number holding at least
#'     one point, and points per cluster (hard).}
#'   \item{objective}{\eqn{E[\log p(y_x|c)] - I(C;X)/\beta}{E[log p(y_x|c)] -
#'     I(C;X)/beta} after every iteration of the run kept.}
#'   \item{trace}{data.frame with `objective`, `info_x` (\eqn{I(C;X)},
#'     nats) and `distortion` (\eqn{E[d(y_x, y_c)]} under \eqn{p(c|x)}) per
#'     iteration.}
#'   \item{info_x, distortion}{their final values.}
#'   \item{log_z}{\eqn{\log Z(c, s)}{log Z(c, s)} at the final prototypes
#'     (used by [predict.ib_kmeans()]).}
#'   \item{beta, s, normalize, restarts, init, max_iter, tol}{the settings used.}
#'   \item{iterations, converged}{iterations of the run kept and whether it
#'     met `tol` before `max_iter`.}
#'   \item{call}{the call.}
#' @references
#' Still, S., Bialek, W. and Bottou, L. (2003). Geometric clustering using
#' the information bottleneck method. Advances in Neural Information
#' Processing Systems 16.
#'
#' Section 5 ("K-means as IB") of "Clustering constrained by dependencies", Virginia Tech technical report TR-09-12 (2009): the functional (27) and the
#' iteration (29)-(35).
#' @seealso [predict.ib_kmeans()], [ib()] for the IB on a joint distribution,
#'   [cvqe()] for k-means with pairwise constraints.
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' fit <- ib_kmeans(x, k = 3, beta = 20)
#' fit
#' # the least certain points
#' round(head(fit$membership[order(apply(fit$membership, 1, max)), ]), 3)
#' table(fit$cluster, iris$Species)
#'
#' # the hard limit is Lloyd's k-means
#' hard <- ib_kmeans(x, k = 3, beta = Inf, restarts = 5)
#' hard$info_x  # I(C;X) = H(C) for a hard partition
#' @export
ib_kmeans <- function(x, k, beta, s = NULL, normalize = c("space", "data"),
                      restarts = 10L, max_iter = 500L, tol = 1e-8,
                      init = c("kmeans++", "random"), start = NULL, verbose = FALSE) {
  call <- match.call()
  pts <- scan_points(x, "x", transpose = TRUE)  # checked and transposed in one pass
  x <- pts$x
  k <- check_k_or_start(k, start, x)
  if (missing(beta)) stop_arg("beta", "is missing; give the trade-off beta > 0 (Inf for k-means)")
  beta <- check_number(beta, "beta", lower = 0, lower_open = TRUE, allow_inf = TRUE)
  s <- if (is.null(s)) ib_kmeans_default_scale(x) else
    check_number(s, "s", lower = 0, lower_open = TRUE)
  normalize <- match_choice(normalize, c("space", "data"), "normalize")
  restarts <- check_count(restarts, "restarts", lower = 1L)
  max_iter <- check_count(max_iter, "max_iter", lower = 1L)
  tol <- check_number(tol, "tol", lower = 0)
  init <- match_choice(init, c("kmeans++", "random"), "init")
  verbose <- check_flag(verbose, "verbose")
  seeds <- check_start_prototypes(start, k, x, restarts, init)
  restarts <- seeds$restarts
  init <- seeds$init
  xt <- pts$xt
  options <- list(k = k, beta = beta, s = s, normalize_over_data = normalize == "data",
                  restarts = 1L, max_iter = max_iter, tol = tol, init = init,
                  start = seeds$centers, verbose = verbose)
  res <- best_run(restarts, function(r) .ib_kmeans_cpp(xt, options),
                  function(run) -final_value(run$objective))
  if (!res$converged) {
    warning(sprintf(paste0("ib_kmeans() did not converge within `max_iter` = %d iterations; ",
                           "near a beta at which a cluster splits convergence is slow ",
                           "(see ?ib_kmeans, \"Convergence and restarts\"): raise `max_iter`"),
                    max_iter), call. = FALSE)
  }
  membership <- res$membership
  dimnames(membership) <- list(rownames(x), NULL)
  cluster <- max.col(membership, ties.method = "first")
  centers <- t(res$centers)
  dimnames(centers) <- list(NULL, colnames(x))
  size <- tabulate(cluster, k)
  trace <- data.frame(objective = res$objective, info_x = res$info_x,
                      distortion = res$distortion)
  fit <- list(cluster = cluster, membership = membership, pc = as.vector(res$pc),
              centers = centers, k = k, k_effective = sum(size > 0), size = size,
              objective = res$objective, trace = trace,
              info_x = utils::tail(res$info_x, 1L),
              distortion = utils::tail(res$distortion, 1L), log_z = as.vector(res$log_z),
              beta = beta, s = s, normalize = normalize, restarts = restarts, init = init,
              max_iter = max_iter, tol = tol, iterations = res$iterations,
              converged = res$converged, call = call)
  fit <- finish_fit(fit, x, "ib_kmeans")
  fit
}

# Mean squared distance of the rows of x to their mean (1 if all rows are
# equal, when any positive scale gives the same fit).
ib_kmeans_default_scale <- function(x) {
  n <- nrow(x)
  # the trace of the covariance: no n x p centred copy of x
  v <- if (n > 1L) sum(diag(stats::cov(x))) * (n - 1) / n else 0
  if (v > 0) v else 1
}
