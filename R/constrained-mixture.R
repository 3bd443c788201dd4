#' Gaussian mixtures with pairwise constraints (hidden Markov random field)
#'
#' Fits a Gaussian mixture by EM whose prior on the labels is the hidden
#' Markov random field of the constraints (Nelson & Cohen 2007, equations
#' 4-7): a labeling \eqn{Y} has prior probability proportional to
#' \deqn{\prod_i w_{y_i} \prod_{(i,j)\ \mathrm{violated}} e^{-2 W_{ij}},}{prod_i
#'   w[y_i] * prod over violated pairs (i, j) of exp(-2 W_ij),}
#' where a must-link is violated when its points get different labels, a
#' cannot-link when they share one (equation 7; the factor 2 comes from
#' equation 5 counting each pair from both ends). A certain constraint
#' (\eqn{W = \infty}) gives violating labelings probability zero. The E-step
#' computes (or approximates) the posterior of the labels, equation (8), by
#' the method `inference`:
#'
#' * `"chunklet"` (Shental et al.): every constraint is taken as certain;
#'   must-links are merged into chunklets (their connected components, a
#'   chunklet's prior is \eqn{w_k^{|L|}}) and cannot-links between chunklets
#'   are handled exactly per connected component of the chunklet-level
#'   cannot-link graph: by sum-product message passing when the component is
#'   a tree, by enumerating its labelings when it has at most `max_labelings`
#'   of them, by cutset conditioning (enumerate the labelings of a set of
#'   chunklets whose removal leaves a forest, pass messages on the forest)
#'   when such a cutset has at most `max_labelings` labelings, otherwise by
#'   mean field over chunklets (the fit's `estep` says which). A component
#'   whose cannot-links no labeling keeps (more mutually cannot-linked
#'   chunklets than clusters, which wrong must-links can cause) also goes to
#'   mean field. Cannot-links inside a chunklet cannot be kept
#'   and are ignored with a warning (counted in `dropped`).
#' * `"icm"` (Basu et al.): iterated conditional modes, each point in turn
#'   takes its most probable label given its neighbours, until no point moves
#'   (starting from the previous iteration's labels; after the first sweep a
#'   point is looked at again only when one of its neighbours has moved). `cluster` holds the ICM
#'   labels and `z` each point's label distribution given its neighbours'
#'   ICM labels (so that without constraints ICM is plain EM).
#' * `"gibbs"` (Lu & Leen's penalized probabilistic clustering): `burn_in`
#'   Gibbs sweeps over the labels in the first E-step only, since the chain
#'   continues between iterations, then `sweeps` recorded sweeps in every
#'   E-step (half of them, rounded up, while the log-likelihood still changes
#'   by more than 1% between iterations: early E-steps need not be precise);
#'   `z` averages each point's conditional label distributions over
#'   the recorded sweeps (Rao-Blackwellized, far less noisy than counting
#'   the sampled labels, hence the default of 10 sweeps). Points without
#'   constraints get their exact posterior and are not sampled. The draws use
#'   a fast generator seeded from R's, so `set.seed()` reproduces them.
#' * `"mean_field"` (Lange et al.): the factorized approximation of equation
#'   (9), \eqn{q_i(k) \propto w_k p(x_i | k) \exp(\sum_j J_{ij} q_j(k))}{q_i(k)
#'   propto w_k p(x_i | k) exp(sum_j J_ij q_j(k))} with \eqn{J = 2W} for a
#'   must-link and \eqn{-2W} for a cannot-link, updated point by point (warm
#'   started from the previous E-step) until no point's field has moved by
#'   more than the tolerance since its last update: after a first sweep over
#'   all points, a point is updated again only when its neighbours' changes
#'   may have moved its probabilities by more than the tolerance, so the
#'   cost follows the points still moving. The tolerance is `inner_tol`
#'   once EM is near convergence; while it is not, the E-step of an
#'   iteration stops at the relative change of the log-likelihood in that
#'   iteration (at most 0.01, which the first iteration uses; never below
#'   `inner_tol`): early E-steps need not be exact, since the next M-step
#'   changes the field again.
#' * `"sampled_chunklet"` (Nelson & Cohen, Section 4, averaging the chunklet
#'   model of Shental et al. over sampled constraint sets): `samples` times,
#'   keep each must-link with probability \eqn{P = 1 - e^{-W}}, build
#'   chunklets, weight the sample by \eqn{\omega_s = \prod (1 - P)} over the
#'   cannot-links that fell inside a chunklet, keep each other cannot-link
#'   with probability \eqn{P} as certain; `z` is the \eqn{\omega}-weighted
#'   average of the samples' chunklet posteriors (equation 11). The samples
#'   depend on the constraints alone, so they are drawn once per fit, in the
#'   first E-step, and every E-step averages over the same ones (common
#'   random numbers: the E-steps do not jitter from fresh draws, which also
#'   makes EM's likelihood path smoother; `ess` is their effective number).
#'   A sample's chunklet posterior is exact on components of its
#'   chunklet-level cannot-link graph that are trees (message passing) or
#'   have at most `max_labelings` labelings (enumeration), and mean field
#'   otherwise (no cutset conditioning, whose cost would be paid for every
#'   sample). Components solved exactly recur across samples (the same
#'   chunklets joined by the same kept cannot-links): each distinct one is
#'   solved once per E-step and weighted by the summed \eqn{\omega} of the
#'   samples that hold it.
#'   All three work on products of the points' weights
#'   \eqn{w_k p(x_i | k)}, so an E-step takes the exponentials once per
#'   point, not once per sample. Points in no pair are their own chunklet
#'   in every sample: they get their exact posterior once and the samples
#'   cover the constrained points only; connected components of the
#'   constraint graph whose constraints all have confidence 1 (or 0) are the
#'   same in every sample and are computed once per E-step. Note that \eqn{P = 1 - e^{-W}} is
#'   the paper's Section 4.1 definition: with confidences, \eqn{P} is the
#'   confidence.
#' * `"exact"`: the exact posterior per connected component of the
#'   constraint graph (certain must-links merged first): by message passing
#'   on components that are trees, otherwise by enumerating the \eqn{k^s}
#'   labelings of a component of \eqn{s} points or, when there are more than
#'   `max_labelings`, by cutset conditioning as above; an error when no
#'   cutset with at most `max_labelings` labelings is found.
#'
#' In every mode, must-links of confidence 1 are merged into chunklets
#' (exact), and ICM and Gibbs treat a certain cannot-link as a penalty of
#' \eqn{10^{10}}, mean field as the factor \eqn{1 - q_j(k)}. A Gibbs chain
#' cannot move between labelings separated by a certain cannot-link (the two
#' points would have to share a cluster on the way), and large penalties slow
#' its mixing (the paper's Section 3.2); with certain or near-certain
#' constraints prefer `"chunklet"` or `"exact"`.
#'
#' @section Constraint strength:
#' The penalty of a pair is \eqn{W = -\log(1 - P)} for its confidence
#' \eqn{P} (the paper's mapping, Section 5.1), infinite for confidence 1
#' (unless certain pairs contradict each other, see below); or
#' `penalty`: one number for every pair (as in Basu et al.'s single weight)
#' or one per pair in the order of the side information (`side$i`,
#' `side$j`), `Inf` meaning certain.
#'
#' @section Contradictory certain pairs:
#' Certain pairs (confidence 1) can contradict each other: a chain of certain
#' must-links joins two points that a certain cannot-link separates, which no
#' clustering keeps. Side information drawn with noise, such as
#' `sample_constraints(y, rate = 0.03, noise = 0.1)` (every confidence 1),
#' holds hundreds of such cannot-links. With `penalty = NULL` (the default)
#' the fit then takes all its certain pairs as soft, with the penalty of
#' confidence 0.9 (\eqn{W = -\log 0.1 \approx 2.3}{W = -log 0.1 = 2.3}, or
#' the largest penalty of the uncertain pairs when that is larger) and says
#' so in a message. Side information whose certain pairs do not contradict
#' each other is fit as before, its certain pairs kept certain. All certain
#' pairs are softened, not only those of the contradictory chunklets: the
#' contradictions show that the certain pairs are noisy, and the wrong
#' certain cannot-links left outside those chunklets (which no chunklet
#' exposes) would still be enforced. `penalty =
#' Inf` (or a penalty vector with `Inf` for those pairs) refuses contradictory
#' certain pairs with an error, as [check_constraints()] lists them.
#' `inference = "chunklet"` takes every pair as certain whatever its penalty:
#' it ignores the cannot-links inside chunklets, with a warning. With many
#' noisy pairs the chunklet models (`"chunklet"`, and `"sampled_chunklet"`,
#' which keeps each must-link with probability 0.9) still join most points
#' into a few chunklets through the wrong must-links; mean field, ICM and
#' Gibbs weigh each pair against the data instead.
#'
#' @section Covariances and the ridge:
#' `covariance = "full"` (any covariance per cluster), `"diagonal"`,
#' `"spherical"` (\eqn{\sigma_k^2 I}) or `"unit"` (the identity, as in the
#' paper's experiments: only the means, and the weights unless
#' `equal_weights`, are estimated). Every estimated covariance gets `ridge`
#' times the mean variance of the columns of `x` added to its diagonal, so
#' that clusters on singular or collinear data stay invertible; `ridge = 0`
#' gives textbook maximum likelihood (and may fail with an error on singular
#' data).
#'
#' @param x Data: a numeric matrix or data.frame, one row per point.
#' @param side Pairwise side information: anything [as_constraints()] takes
#'   (`constraints()`, `sample_constraints()`, a data.frame of pairs, an E
#'   matrix; partial labels are expanded into pairs), or `NULL` for none.
#' @param k Number of clusters, `1 <= k <= nrow(x)`.
#' @param inference The E-step, see Details.
#' @param covariance Cluster covariance model, see Covariances and the ridge.
#' @param penalty `NULL` (penalties from the confidences; contradictory
#'   certain pairs are taken as soft, see Contradictory certain pairs) or
#'   penalties \eqn{W \ge 0}: one number or one per pair, `Inf` for certain
#'   (an error when certain pairs contradict each other).
#' @param start Initial clustering: `NULL` (k-means with 5 starts on `x`), a
#'   vector of cluster numbers in `1..k`, or an `n x k` matrix of
#'   probabilities. EM starts with an M-step from it.
#' @param max_iter Maximum number of EM iterations.
#' @param tol EM stops when the mixture log-likelihood changes by less than
#'   `tol * (1 + |loglik|)`.
#' @param equal_weights Keep the mixing weights at `1 / k`.
#' @param ridge Relative ridge on the covariances, see above.
#' @param samples Sampled chunklets: number of sampled constraint sets, drawn
#'   once per fit. An E-step costs about one chunklet E-step per sample; with
#'   misspecified constraints, fewer than 20 samples lose accuracy on small
#'   data sets (the average over the samples is what makes the method robust).
#' @param threads Sampled chunklets: threads that solve the samples side by
#'   side (each with its own workspace of two \eqn{k \times} chunklets
#'   matrices); their posteriors are added in sample order, so the fit does
#'   not depend on `threads`. The other inferences run on one thread. The
#'   default is `getOption("sideclust.threads", 2L)`.
#' @param sweeps,burn_in Gibbs: recorded sweeps per E-step, and burn-in
#'   sweeps before the first E-step's recorded ones.
#' @param inner_iter,inner_tol Mean field / ICM: largest number of sweeps per
#'   E-step, and the mean-field convergence tolerance (reached by the E-steps
#'   once EM is near convergence, see `"mean_field"` above; also used by the
#'   chunklet models' mean-field fallback).
#' @param max_labelings Exact and chunklet inference: the largest number of
#'   labelings enumerated for one connected component with cycles; cutset
#'   conditioning is used when (labelings of the cutset) x (units of the
#'   component) is at most this.
#' @param verbose Print one line per iteration.
#' @return An object of class `c("constrained_mixture", "sideclust")`, a list
#'   with `cluster` (`1..k`, the most probable cluster of each point; for ICM
#'   its label), `k`, `z` (`n x k` probabilities), `centers` (`k x p` means),
#'   `covariances` (`p x p x k`), `weights`, `loglik` (mixture
#'   log-likelihood of the data, without the constraints, after every
#'   M-step), `iterations`, `converged`, `estep` (`"exact"` or `"mean
#'   field"` for the chunklet model, otherwise the inference), `dropped`,
#'   `n_chunklets` (units the field works on), `ess` (sampled chunklets:
#'   effective number of the fit's samples, \eqn{(\sum \omega_s)^2 / \sum
#'   \omega_s^2}), the settings used
#'   (`inference`, `covariance`, `penalty` (per pair), `ridge` (absolute),
#'   ...), `side` and `call`.
#' @references
#' Nelson, B. and Cohen, I. (2007). Revisiting probabilistic models for
#' clustering with pair-wise constraints. ICML.
#'
#' Shental, N., Bar-Hillel, A., Hertz, T. and Weinshall, D. (2003). Computing
#' Gaussian mixture models with EM using equivalence constraints. NIPS.
#'
#' Basu, S., Bilenko, M. and Mooney, R. J. (2004). A probabilistic framework
#' for semi-supervised clustering. KDD.
#'
#' Lu, Z. and Leen, T. K. (2004). Semi-supervised learning with penalized
#' probabilistic clustering. NIPS.
#'
#' Lange, T., Law, M. H. C., Jain, A. K. and Buhmann, J. M. (2005). Learning
#' with constrained and unlabelled data. CVPR.
#' @seealso [constraint_posterior()] for one E-step from given probabilities,
#'   [sample_constraints()] (`protocol = "nelson_cohen"`).
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' side <- sample_constraints(iris$Species, "nelson_cohen", n_constraints = 60,
#'                            noise = 0.1)
#' fit <- constrained_mixture(x, side, k = 3, inference = "mean_field",
#'                            covariance = "diagonal")
#' fit
#' table(fit$cluster, iris$Species)
#' head(round(fit$z, 3))
#'
#' # sampled chunklets: must-links kept with probability = confidence
#' fit_ch <- constrained_mixture(x, side, k = 3, inference = "sampled_chunklet",
#'                               covariance = "diagonal", samples = 10)
#' compare_partitions(iris$Species, fit_ch)
#' predict(fit_ch, x[1:3, ], type = "prob")
#'
#' # noisy pairs of confidence 1 contradict each other: taken as soft, with a
#' # message; penalty = Inf would refuse them
#' side_tv <- sample_constraints(iris$Species, rate = 0.03, noise = 0.1)
#' fit_tv <- constrained_mixture(x, side_tv, k = 3)
#' compare_partitions(iris$Species, fit_tv)
#' @export
constrained_mixture <- function(x, side, k,
                                inference = c("mean_field", "chunklet", "icm", "gibbs",
                                              "sampled_chunklet", "exact"),
                                covariance = c("full", "diagonal", "spherical", "unit"),
                                penalty = NULL, start = NULL, max_iter = 100L,
                                tol = 1e-6, equal_weights = FALSE, ridge = 1e-6,
                                samples = 20L, sweeps = 10L, burn_in = 5L,
                                inner_iter = 50L, inner_tol = 1e-6,
                                max_labelings = 1e6,
                                threads = getOption("sideclust.threads", 2L),
                                verbose = FALSE) {
  call <- match.call()
  x <- check_points(x, "x")
  n <- nrow(x)
  if (missing(side)) stop_arg("side", "is missing; use NULL for no constraints")
  if (missing(k)) stop_arg("k", "is missing: the number of clusters")
  k <- check_count(k, "k", lower = 1L)
  if (k > n) stop_arg("k", sprintf("(%d) is larger than the number of points (%d)", k, n))
  inference <- match_choice(inference, cm_inferences, "inference")
  covariance <- match_choice(covariance, cm_covariances, "covariance")
  max_iter <- check_count(max_iter, "max_iter", lower = 1L)
  tol <- check_number(tol, "tol", lower = 0)
  equal_weights <- check_flag(equal_weights, "equal_weights")
  ridge <- check_number(ridge, "ridge", lower = 0)
  verbose <- check_flag(verbose, "verbose")
  side <- cm_side(side, n)
  w <- cm_penalty(side, penalty, soften = is.null(penalty), chunklet = inference == "chunklet",
                  hint = "leave `penalty` NULL to take certain pairs as soft, or fix them")
  options <- cm_options(samples, sweeps, burn_in, inner_iter, inner_tol, max_labelings, threads)
  scale_var <- mean(column_variances(x))
  if (n < 2L || !is.finite(scale_var) || scale_var <= 0) scale_var <- 1
  options$ridge <- ridge * scale_var
  options$equal_weights <- equal_weights
  options$max_iter <- max_iter
  options$tol <- tol
  options$verbose <- verbose
  options$k <- k
  options$penalty <- w
  options$inference <- inference
  options$covariance <- covariance
  options$start <- cm_start(start, x, k)
  # x (a plain double matrix from check_data_matrix()) is read in place
  res <- .constrained_mixture_cpp(x, side, options)
  options$start <- NULL
  if (res$dropped > 0L) {
    warning(sprintf(paste0("inference = \"chunklet\" takes every constraint as certain: ",
                           "%d cannot-link%s inside must-link chunklets ignored ",
                           "(see check_constraints())"),
                    res$dropped, if (res$dropped == 1L) " lies" else "s lie"),
            call. = FALSE)
  }
  z <- res$z  # n x k, columns named 1..k
  cluster <- max.col(z, ties.method = "first")
  centers <- res$centers
  dimnames(centers) <- list(seq_len(k), colnames(x))
  dimnames(res$covariances) <- list(colnames(x), colnames(x), seq_len(k))
  estep <- switch(inference,
    chunklet = if (res$mean_field_components > 0L) "mean field" else "exact",
    sampled_chunklet = if (res$mean_field_components > 0L) "mean field" else "exact",
    mean_field = "mean field", icm = "icm", gibbs = "gibbs", exact = "exact")
  fit <- list(
    cluster = as.integer(cluster), k = k, z = z, centers = centers,
    covariances = res$covariances, weights = as.vector(res$weights),
    loglik = res$loglik, objective = res$loglik, iterations = res$iterations,
    converged = res$converged, inference = inference, estep = estep,
    covariance = covariance, penalty = w, dropped = res$dropped,
    n_chunklets = res$n_units,
    ess = if (inference == "sampled_chunklet") res$ess else NULL,
    ridge = options$ridge, equal_weights = equal_weights,
    settings = options[c("samples", "sweeps", "burn_in", "inner_iter", "inner_tol",
                         "max_labelings", "max_iter", "tol")],
    side = side, call = call)
  fit <- finish_fit(fit, x, "constrained_mixture")
  fit
}
