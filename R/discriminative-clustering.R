#' Discriminative clustering (clustering with auxiliary data)
#'
#' Sinkkonen and Kaski's discriminative clustering in the Bayesian form of
#' Kaski et al.: prototypes in the data space define smooth Voronoi-like
#' clusters, placed so that the clusters are as informative as possible about
#' auxiliary classes (partial labels). Unlike k-means, directions of the data
#' that do not tell the classes apart are ignored, however large their
#' variance. `method = "bayes_factor"` (the default) maximizes Kaski et al.'s
#' log Bayes factor by a monotone quasi-Newton ascent; `method =
#' "stochastic"` runs Sinkkonen and Kaski's stochastic approximation of the
#' distortion \eqn{E_{KL}}{E_KL}.
#'
#' @section Model and objective:
#' Cluster \eqn{c} has a prototype \eqn{m_c} in the data space and a class
#' distribution \eqn{\psi_c = p(y \mid c)}{psi_c = p(y | c)}. Point \eqn{x}
#' belongs to cluster \eqn{c} with the soft membership (57) of TR-09-12
#' with a Gaussian \eqn{f}
#' \deqn{W_c(x) = \frac{\exp(-\|x - m_c\|^2 / (2\sigma^2))}{\sum_{c'}
#'   \exp(-\|x - m_{c'}\|^2 / (2\sigma^2))},}{W_c(x) = exp(-|x - m_c|^2 /
#'   (2 sigma^2)) / sum_c' exp(-|x - m_c'|^2 / (2 sigma^2)),}
#' and the labelled points give the soft contingency table \eqn{n_{cy} =
#' \sum_{i: y_i = y} W_c(x_i)}{n_cy = sum_{i: y_i = y} W_c(x_i)}. With a
#' Dirichlet(\eqn{n_0, \dots, n_0}) prior on every \eqn{\psi_c}{psi_c}
#' integrated out, the prototypes maximize the log Bayes factor of this table
#' (equation (60) of TR-09-12, the form it gives last):
#' \deqn{\log BF = \sum_c \Big[\sum_y \log\Gamma(n_{cy} + n_0) -
#'   \log\Gamma(N_c + M n_0)\Big] + \mathrm{const},}{log BF = sum_c [sum_y
#'   lgamma(n_cy + n0) - lgamma(N_c + M n0)] + const,}
#' with \eqn{N_c = \sum_y n_{cy}}{N_c = sum_y n_cy} and \eqn{M} classes.
#' TR-09-12 prints the denominator \eqn{\Gamma(\sum_y (n_0 + n_{cy}))}{
#' Gamma(sum_y (n0 + n_cy))} inside the product over \eqn{y}; it is the
#' normalizing constant of cluster \eqn{c}'s Dirichlet posterior and belongs
#' once to each cluster, as in Kaski et al., which is how it is implemented.
#' The constant is chosen so that `objective` is the log Bayes factor of
#' "each cluster has its own class distribution" against "all clusters share
#' one" (both with the same prior): a single cluster, or labels of a single
#' class, score exactly 0. Larger values mean clusters more informative about
#' the classes; for large counts \eqn{\log BF}{log BF} grows roughly like
#' \eqn{N} times the empirical mutual information of clusters and classes.
#'
#' @section Optimization:
#' The objective is a smooth function of the prototypes with gradient
#' \deqn{\frac{\partial \log BF}{\partial m_c} = \sum_i W_c(x_i)\,
#'   (a_{c y_i} - \bar a_i)\, \frac{x_i - m_c}{\sigma^2},}{d log BF / d m_c =
#'   sum_i W_c(x_i) (a_{c,y_i} - abar_i) (x_i - m_c) / sigma^2,}
#' where \eqn{a_{cy} = \psi(n_{cy} + n_0) - \psi(N_c + M n_0)}{a_cy =
#' digamma(n_cy + n0) - digamma(N_c + M n0)} and \eqn{\bar a_i = \sum_c
#' W_c(x_i) a_{c y_i}}{abar_i = sum_c W_c(x_i) a_{c,y_i}}. It is maximized by
#' limited-memory BFGS (7 pairs) with a backtracking line search that only
#' accepts steps that raise the objective (Armijo condition), so the trace
#' `objective` never decreases. A run stops with `converged = TRUE` when
#' \eqn{\sigma \max |\partial \log BF / \partial m|}{sigma max |gradient|}
#' is at most `tol` times the number of labelled points (`convergence =
#' "gradient"`: a stationary point), or when the last 10 iterations raised
#' the objective by less than `10 * rel_tol` times its value in all
#' (`"objective"`); it stops with `converged = FALSE` and a warning when
#' `max_iter` iterations are used up (`"max_iter"`) or no step along the
#' gradient raises the objective any more (`"no_ascent"`). Each of `restarts` runs
#' starts from seeds drawn from the rows of `x` (all of them, labelled or
#' not); the run with the highest final objective is kept. Every evaluation
#' costs \eqn{O(n_l k p)}{O(n_l k p)} time for \eqn{n_l} labelled points and
#' \eqn{O(n_l k)}{O(n_l k)} memory.
#'
#' The objective does not tie the prototypes to the data. Moving two
#' prototypes apart along the line through them sharpens the boundary between
#' their clusters without moving it, so when sharper boundaries score better
#' (typically when the classes are well separated by the boundaries) the
#' prototypes drift far outside the data while the memberships approach
#' hard nearest-prototype assignments; the objective then keeps rising ever
#' more slowly and the run ends by the `rel_tol` rule or at `max_iter`. The
#' boundaries and memberships are what the fit determines; `centers` need not
#' look like cluster means, and `sigma` sets the smoothness at the start.
#'
#' @section Stochastic approximation (`method = "stochastic"`):
#' Minimizes the distortion (55) of TR-09-12, \eqn{E_{KL} = \sum_c \int
#' W_c(x) D_{KL}(p(y \mid x) \| p(y \mid c)) p(x) dx}{E_KL = sum_c int
#' W_c(x) KL(p(y | x) || p(y | c)) p(x) dx}, over the prototypes and the
#' softmax parameters \eqn{\gamma_{cy}}{gamma_cy} of \eqn{p(y \mid c)}{p(y
#' | c)} (58), with the empirical distribution of the labelled points. Each
#' of `epochs` passes makes \eqn{n_l}{n_l} steps: draw a labelled point
#' \eqn{x} (class \eqn{y}) uniformly, draw two clusters \eqn{c, c'}
#' independently from the memberships \eqn{W(x)}, and with gain \eqn{a} and
#' \eqn{L = \log p(y \mid c') - \log p(y \mid c)}{L = log p(y | c') - log
#' p(y | c)} update \eqn{m_c \leftarrow m_c - a L (x - m_c)}{m_c <- m_c - a L
#' (x - m_c)}, \eqn{m_{c'} \leftarrow m_{c'} + a L (x - m_{c'})}{m_c' <- m_c' +
#' a L (x - m_c')} (steps 1-3 of TR-09-12 with the Gaussian \eqn{\partial
#' f / \partial m_c = (x - m_c) / \sigma^2}{df/dm_c = (x - m_c) / sigma^2},
#' \eqn{\sigma^2}{sigma^2} folded into the gain) and \eqn{\gamma_{cs}
#' \leftarrow \gamma_{cs} - a (p(s \mid c) - \delta_{ys})}{gamma_cs <- gamma_cs
#' - a (p(s | c) - delta_ys)}, likewise for \eqn{c'}. The gain falls linearly
#' from `step` at the first step to 0 at the last. Decisions where TR-09-12
#' is open: "choose two clusters at random" is read as drawing them from
#' \eqn{W(x)}, as in Sinkkonen and Kaski (with uniform draws the steps would
#' not follow the gradient); TR-09-12 skips the step when \eqn{c = c'},
#' which for the prototypes is a step of 0 anyway, but for \eqn{\gamma}{gamma}
#' would scale the expected step by \eqn{1 - W_c(x)} and freeze \eqn{p(y
#' \mid c)}{p(y | c)} as the memberships harden, so \eqn{\gamma}{gamma} is
#' updated at every step (every expected step is then \eqn{2a} times the
#' negative gradient of \eqn{E_{KL}}{E_KL}); the updates keep \eqn{\sum_s
#' \gamma_{cs}}{sum_s gamma_cs} at 0, which fixes the free constant of (58)
#' instead of fixing one \eqn{\gamma_{cy}}{gamma_cy}. \eqn{\gamma}{gamma}
#' starts at the log of the posterior mean \eqn{(n_{cy} + n_0) / (N_c + M
#' n_0)}{(n_cy + n0) / (N_c + M n0)} for the starting prototypes. `objective`
#' records \eqn{-E_{KL}}{-E_KL} up to its constant, the mean over the
#' labelled points of \eqn{\sum_c W_c(x_i) \log p(y_i \mid c)}{sum_c
#' W_c(x_i) log p(y_i | c)}, at the start and after every epoch; it is not
#' monotone. The run with the highest final value is kept; `converged` is
#' `NA` (the run ends with its gain schedule) and `log_bayes_factor` gives
#' (60) at the end, to compare with the other method.
#'
#' @section Unlabelled points and uninformative labels:
#' Points with an `NA` label get memberships and a cluster but do not enter
#' \eqn{n_{cy}}{n_cy}: they neither attract nor repel the prototypes. Classes
#' without a labelled point are dropped. When the labels carry no information
#' (no labelled point, or a single class), \eqn{\log BF}{log BF} is 0 for
#' every placement of the prototypes, its gradient vanishes, and the fit
#' stops at its starting prototypes after 0 iterations with a warning (the
#' stochastic steps leave the prototypes where they are too, as
#' \eqn{L = 0}); use
#' [stats::kmeans()] to cluster without labels. A prototype whose cluster
#' does not help to predict the classes may drift away from the data, so
#' some of the `k` hard clusters can be empty.
#'
#' @param x Data: a numeric matrix or data.frame, one row per point. The
#'   memberships are isotropic, so put the columns on comparable scales
#'   (e.g. with [scale()]).
#' @param side Auxiliary classes (partial labels): a vector or factor of
#'   length `nrow(x)` with `NA` for unlabelled points, or a `sideclust_labels`
#'   object (from [sample_labels()] or [as_constraints()]). Pairwise
#'   constraints are not accepted.
#' @param k Number of prototypes, between 1 and the number of distinct rows
#'   of `x`. May be omitted when `start` is given.
#' @param sigma Width of the Gaussian memberships (in the units of `x`);
#'   smaller values give harder clusters. `NULL` (the default) takes
#'   \eqn{s\, k^{-1/p}}{s k^(-1/p)}, where \eqn{s^2} is the mean variance of
#'   the \eqn{p} columns of `x`: the standard deviation per coordinate of a
#'   cell when the data's volume is shared equally among `k` cells.
#' @param n0 Dirichlet prior parameter of every class distribution
#'   \eqn{p(y \mid c)}{p(y | c)} (1: uniform prior).
#' @param method `"bayes_factor"` (maximize the log Bayes factor (60)) or
#'   `"stochastic"` (stochastic approximation for \eqn{E_{KL}}{E_KL}).
#' @param restarts Number of runs from different seeds; the one with the
#'   highest final objective is kept. Ignored (1) with `start`.
#' @param max_iter Maximum number of L-BFGS iterations per run
#'   (`"bayes_factor"`).
#' @param tol Convergence tolerance on the scaled gradient (see
#'   Optimization).
#' @param rel_tol Convergence tolerance on the relative gain of the
#'   objective per iteration, averaged over the last 10 iterations.
#' @param epochs Number of passes over the labelled points (`"stochastic"`).
#' @param step Gain at the first stochastic step (`"stochastic"`); it falls
#'   linearly to 0.
#' @param init Seeding: `"kmeans++"` or `"random"` rows of `x`, drawn with
#'   R's random number generator ([set.seed()] reproduces the fit).
#' @param start Optional `k` x `ncol(x)` matrix of initial prototypes; then
#'   one run is made and `init` is recorded as `"start"`.
#' @param verbose Print the objective after every iteration.
#' @return An object of class `c("discriminative_clustering", "sideclust")`,
#'   a list with
#'   \item{cluster}{integer cluster of every point (largest membership),
#'     `1..k`; some clusters may be empty.}
#'   \item{membership}{`n` x `k` matrix of soft memberships \eqn{W_c(x_i)}.}
#'   \item{centers}{`k` x `p` matrix of prototypes \eqn{m_c}. They define
#'     the memberships and the boundaries between the clusters, not the
#'     clusters' locations: they need not be cluster means and can lie far
#'     outside the data (see Optimization). The means of the points of each
#'     hard cluster are `rowsum(x, fit$cluster) / fit$size`. `print()` and
#'     `summary()` show no locations.}
#'   \item{k}{number of prototypes.}
#'   \item{size}{points per hard cluster.}
#'   \item{class_distributions}{`k` x `M` matrix of \eqn{p(y \mid c)}{p(y |
#'     c)}: for `"bayes_factor"` the posterior means \eqn{(n_{cy} + n_0) /
#'     (N_c + M n_0)}{(n_cy + n0) / (N_c + M n0)} given the soft counts, for
#'     `"stochastic"` the softmax of the learnt \eqn{\gamma}{gamma}.}
#'   \item{counts}{`k` x `M` soft contingency table \eqn{n_{cy}}{n_cy} of the
#'     labelled points (the table the objective scores).}
#'   \item{contingency}{hard clusters x classes table of counts, with a last
#'     column `unlabelled`.}
#'   \item{objective}{the method's objective at the start and after every
#'     iteration (epoch) of the run kept (length `iterations + 1`):
#'     \eqn{\log BF}{log BF}, or \eqn{-E_{KL}}{-E_KL} up to a constant.}
#'   \item{log_bayes_factor}{\eqn{\log BF}{log BF} (60) at the end.}
#'   \item{iterations, converged, convergence}{iterations (epochs) of the run
#'     kept, whether it stopped by `tol` or `rel_tol` (`NA` for
#'     `"stochastic"`), and why it stopped (`"gradient"`, `"objective"`,
#'     `"max_iter"`, `"no_ascent"`, or `"schedule"` for `"stochastic"`).}
#'   \item{sigma, n0, method, restarts, init}{the settings used, with
#'     `tol`, `rel_tol` and `gradient_max` (the largest absolute gradient
#'     component at the end) for `"bayes_factor"`, `epochs` and `step` for
#'     `"stochastic"`.}
#'   \item{side}{the labels used (a `sideclust_labels` object).}
#'   \item{call}{the call.}
#' @references
#' Kaski, S., Sinkkonen, J. and Klami, A. (2005). Discriminative clustering.
#' Neurocomputing 69, 18-41.
#'
#' Sinkkonen, J. and Kaski, S. (2002). Clustering based on conditional
#' distributions in an auxiliary space. Neural Computation 14, 217-239.
#'
#' Section 8 of "Clustering constrained by dependencies", Virginia Tech technical report TR-09-12 (2009): equations (55)-(58), the stochastic steps 1-3,
#' and (60).
#' @seealso [predict.discriminative_clustering()], [sample_labels()],
#'   [cec_ib()], [nmi()].
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' labels <- sample_labels(iris$Species, fraction = 0.3)
#' fit <- discriminative_clustering(x, labels, k = 3, restarts = 3)
#' fit
#' round(fit$class_distributions, 2)
#' compare_partitions(iris$Species, fit$cluster)
#'
#' # the stochastic approximation of TR-09-12's E_KL
#' sa <- discriminative_clustering(x, labels, k = 3, method = "stochastic",
#'                                 restarts = 2, epochs = 20)
#' table(sa$cluster, iris$Species)
#' @export
discriminative_clustering <- function(x, side, k, sigma = NULL, n0 = 1,
                                      method = c("bayes_factor", "stochastic"),
                                      restarts = 10L, max_iter = 500L, tol = 1e-6,
                                      rel_tol = 1e-8, epochs = 50L, step = 0.1,
                                      init = c("kmeans++", "random"), start = NULL,
                                      verbose = FALSE) {
  call <- match.call()
  pts <- scan_points(x, "x", transpose = TRUE)  # checked and transposed in one pass
  x <- pts$x
  n <- nrow(x)
  if (missing(side) || is.null(side)) {
    stop_arg("side", "is missing; give the auxiliary classes (NA for unlabelled points)")
  }
  side <- dc_labels(side, n)
  method <- match_choice(method, c("bayes_factor", "stochastic"), "method")
  init <- match_choice(init, c("kmeans++", "random"), "init")
  k <- check_k_or_start(k, start, x)
  sigma <- if (is.null(sigma)) dc_default_sigma(x, k) else
    check_number(sigma, "sigma", lower = 0, lower_open = TRUE)
  n0 <- check_number(n0, "n0", lower = 0, lower_open = TRUE)
  restarts <- check_count(restarts, "restarts", lower = 1L)
  max_iter <- check_count(max_iter, "max_iter", lower = 1L)
  tol <- check_number(tol, "tol", lower = 0, lower_open = TRUE)
  rel_tol <- check_number(rel_tol, "rel_tol", lower = 0)
  epochs <- check_count(epochs, "epochs", lower = 1L)
  step <- check_number(step, "step", lower = 0, lower_open = TRUE)
  verbose <- check_flag(verbose, "verbose")
  seeds <- check_start_prototypes(start, k, x, restarts, init)
  restarts <- seeds$restarts
  init <- seeds$init
  n_classes <- length(side$levels)
  if (n_classes < 2L) {
    warning("the labels in `side` carry no information (", if (n_classes == 0L) "no labelled point" else
              "a single class", "): the objective is 0 everywhere and the prototypes stay at ",
            "their starting points", call. = FALSE)
  }
  settings <- list(sigma = sigma, n0 = n0, method = method, restarts = restarts, init = init)
  core_options <- list(k = k, sigma = sigma, n0 = n0, restarts = 1L, init = init,
                       start = seeds$centers, verbose = verbose)
  xt <- pts$xt
  highest <- function(run) -final_value(run$objective)
  if (method == "stochastic") {
    options <- c(core_options, epochs = epochs, step = step)
    res <- best_run(restarts, function(r) .discriminative_stochastic_cpp(xt, side, options),
                    highest)
    res$iterations <- res$epochs
    res$stop <- "schedule"
    res$converged <- NA
    e <- exp(res$gamma - apply(res$gamma, 1L, max))  # softmax of each row, (58)
    res$class_distributions <- e / rowSums(e)
    return(dc_new_fit(x, res, side, k, c(settings, epochs = epochs, step = step), call))
  }
  options <- c(core_options, max_iter = max_iter, tol = tol, rel_tol = rel_tol)
  res <- best_run(restarts, function(r) .discriminative_clustering_cpp(xt, side, options), highest)
  res$converged <- res$stop %in% c("gradient", "objective")
  if (res$stop == "max_iter") {
    warning(sprintf(paste0("discriminative_clustering() did not converge within `max_iter` = ",
                           "%d iterations; raise `max_iter`, `tol` or `rel_tol`"), max_iter),
            call. = FALSE)
  } else if (res$stop == "no_ascent") {
    warning(sprintf(paste0("discriminative_clustering() stopped after %d iterations: no step ",
                           "raised the objective, but the gradient is above `tol`"),
                    res$iterations), call. = FALSE)
  }
  res$log_bayes_factor <- utils::tail(res$objective, 1L)
  res$class_distributions <- (res$counts + n0) / (rowSums(res$counts) + ncol(res$counts) * n0)
  dc_new_fit(x, res, side, k, c(settings, tol = tol, rel_tol = rel_tol,
                                gradient_max = res$grad_max), call)
}

# Partial labels with the classes that have no labelled point dropped.
dc_labels <- function(labels, n) {
  side <- side_as_labels(labels, n, "discriminative clustering")
  used <- sort(unique(side$labels[!is.na(side$labels)]))
  if (length(used) < length(side$levels)) {
    side$labels <- match(side$labels, used)
    side$levels <- side$levels[used]
  }
  side
}

# s k^(-1/p) with s^2 the mean column variance (a constant x: 1).
dc_default_sigma <- function(x, k) {
  v <- if (nrow(x) > 1L) mean(column_variances(x)) else 0
  s <- if (v > 0) sqrt(v) else 1
  s * k^(-1 / ncol(x))
}

# The fit from the core's list `res` (with class_distributions, converged,
# stop and log_bayes_factor added) and the method's settings.
dc_new_fit <- function(x, res, side, k, settings, call) {
  classes <- side$levels
  if (length(classes) == 0L) classes <- "(none)"
  names_ck <- list(cluster = seq_len(k), class = classes)
  counts <- res$counts
  dimnames(counts) <- names_ck
  class_distributions <- res$class_distributions
  dimnames(class_distributions) <- names_ck
  centers <- t(res$centers)
  dimnames(centers) <- list(NULL, colnames(x))
  membership <- res$membership
  dimnames(membership) <- list(rownames(x), NULL)
  lab <- factor(side$levels[side$labels], levels = side$levels)
  contingency <- cbind(unclass(table(factor(res$cluster, levels = seq_len(k)), lab)),
                       unlabelled = tabulate(res$cluster[is.na(side$labels)], k))
  names(dimnames(contingency)) <- c("cluster", "class")
  fit <- c(list(cluster = res$cluster, membership = membership, centers = centers, k = k,
                size = tabulate(res$cluster, k), class_distributions = class_distributions,
                counts = counts, contingency = contingency, objective = res$objective,
                log_bayes_factor = res$log_bayes_factor, iterations = res$iterations,
                converged = res$converged, convergence = res$stop),
           settings, list(side = side, call = call))
  fit <- finish_fit(fit, x, "discriminative_clustering")
  fit
}
