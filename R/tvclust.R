#' TVClust: Dirichlet-process mixture clustering with noisy side information
#'
#' Samples the posterior over partitions of the TVClust model (Khashabi et
#' al., Section 3): a Dirichlet-process mixture of the data, and the side
#' information as a noisy random graph on the points, where a pair in the
#' same cluster carries a must-link with probability `p` and a pair in
#' different clusters carries a cannot-link with probability `q`. The
#' cluster parameters are integrated out (collapsed Gibbs sampling, Neal 2000,
#' Algorithm 3), so point \eqn{i} joins cluster \eqn{k} with weight
#' \deqn{n_{-i,k}\, p(x_i | x_k) \left(\frac{p}{1-q}\right)^{f_k}
#'   \left(\frac{1-p}{q}\right)^{s_k}}{n_{-i,k} p(x_i | x_k) (p / (1 - q))^f_k ((1 - p) / q)^s_k}
#' where \eqn{f_k} and \eqn{s_k} are the total confidence of the must-links and
#' cannot-links between \eqn{i} and the members of \eqn{k}, or a new cluster
#' with weight \eqn{\alpha\, p(x_i)}{alpha p(x_i)}.
#'
#' @section Variational inference:
#' `method = "variational"` fits the same model by mean-field variational
#' inference instead of sampling (Blei & Jordan 2006): the Dirichlet process
#' is truncated at `truncation` sticks, and each point has a factor
#' \eqn{q(z_i) = r_i}{q(z_i) = r_i} over those components, each cluster a
#' conjugate factor of its parameters (the families and priors of the
#' sampler), and `p`, `q` (with `pq_prior`) and `alpha` (with `alpha_prior`)
#' Beta and Gamma factors. A pair of points enters through the expected
#' co-clustering \eqn{r_i \cdot r_j}{r_i . r_j}, so each point's update
#' depends on its neighbours' current responsibilities: a sweep updates the
#' points one after the other, then the cluster, stick, `alpha` and `p`, `q`
#' factors, for \eqn{O(\mathrm{pairs} \cdot T + n T p^2)}{O(pairs T + n T p^2)}
#' work (\eqn{T} = `truncation`). Every update maximizes the evidence lower
#' bound (ELBO) over its factor, so the ELBO never decreases; the run stops
#' when a sweep gains less than `tol` times its absolute value (or after
#' `max_iter` sweeps, with a warning). Single updates cannot open or close a
#' cluster, so a converged run then tries split moves (an occupied component
#' cut in two around two k-means++ seeds, into an empty component) and
#' delete moves (a component emptied into the others), after Hughes &
#' Sudderth (2013); each is run for a few sweeps and kept, then run to
#' convergence, only when the ELBO ends above the converged one, until no
#' move is kept, or the budget of `max_iter` sweeps (trial sweeps included)
#' is spent. A trial sweep updates only the points the move changed and
#' refits only the components it changed, so a move costs
#' \eqn{O(n p^2)}{O(n p^2)}, not a refit. `restarts` runs start from `k` clusters around k-means++
#' seeds (`init = "kmeans++"`, the default) or from random partitions into
#' `k` clusters (`init = "random"`), or from given partitions, and the run of
#' largest ELBO is kept; the seeds and the split moves draw from R's
#' generator, so [set.seed()] reproduces a fit. The truncation must be at
#' least `k`; components that no point needs keep their prior (their
#' responsibilities below \eqn{10^{-12}}{1e-12} of a point's largest are set
#' to zero), so the number of clusters found is at most `truncation`. The result has class `"tvclust_vb"` (see
#' [tvclust_vb-methods]): the hard partition (each point in its most
#' responsible component), the responsibilities `membership`, the ELBO trace,
#' and [predict()], [coef()], [logLik()] and [psm()]. The arguments of the
#' sampler (`iter`, `chains`, ...) are errors under `method = "variational"`,
#' and `truncation`, `restarts`, `max_iter` and `tol` under `"gibbs"`.
#' Mean field is overconfident where the posterior is multimodal; with
#' well-separated clusters its co-clustering probabilities are close to the
#' exact posterior's (the tests compare them on tiny data).
#'
#' @section Moves:
#' Every sweep visits every point once (single-point Gibbs), then makes
#' `split_merge` split-merge proposals (Jain & Neal 2004, with three
#' restricted Gibbs scans for the launch state), then, with `chunklet_moves`,
#' redraws the common cluster of every must-link chunklet whose points are
#' together, then redraws `p`, `q` and `alpha` if they have priors. Each move
#' leaves the posterior invariant; the tests check the sampler against the
#' exact posterior obtained by enumerating all partitions of tiny data sets.
#' Split-merge and chunklet moves let the chain leave configurations where
#' single-point moves are nearly impossible, such as dense must-link cliques
#' split across two clusters.
#'
#' @section Chains and reproducibility:
#' The `chains` run on up to `threads` threads. Each chain has its own random
#' stream whose seed is drawn from R's generator, so [set.seed()] reproduces a
#' run exactly and the draws do not depend on `threads`. Ctrl-C (or Esc)
#' stops all chains within about a second and returns nothing. Runs of the
#' same data and settings made in other sessions or on other machines pool
#' into one fit with [combine_chains()] (or `c()`), and the traces go to the
#' \pkg{posterior} and \pkg{coda} packages with [as_draws_array.tvclust()]
#' and [as.mcmc.list.tvclust()].
#'
#' @section Threads and future workers:
#' Threads serve one machine; a \pkg{future} plan serves many (see
#' `vignette("parameters")`). With no plan, or `future::plan("sequential")`,
#' the chains run in this process on `threads` threads. Under a plan with
#' several workers (`multisession`, `cluster`, a scheduler through
#' \pkg{future.batchtools}) the chains are shared out in contiguous groups,
#' one group per worker, and each worker runs its group on one thread unless
#' `threads` is given in the call: workers times threads then never exceeds
#' the cores the plan was given. Every chain keeps the seed it would have had
#' in one call, so the fit is the same under every plan and number of workers.
#' Progress goes to \pkg{progressr} (`progressr::with_progress()` or
#' `progressr::handlers(global = TRUE)`); the chains' C++ threads never
#' write to the console.
#'
#' @section Point estimate and memory:
#' The point estimate minimizes the posterior expected loss (`loss`: the
#' variation of information, the default, or Binder's loss, the number of
#' pairs put differently), averaged over all stored draws. Binder's loss
#' puts a point whose co-clustering probabilities with every cluster are
#' below one half into a cluster of its own, so its estimate tends to hold
#' more clusters than the draws do; the variation of information merges such
#' spurious small clusters (Wade & Ghahramani 2018) and is the default.
#' `fit$posterior_k` gives the posterior of the number of clusters beside the
#' estimate's `k`, and `print()` shows it. First the best of up to
#' `max_candidates` evenly spaced stored draws is found. With
#' `point_estimate = "search"` (the default) a greedy local search then
#' starts from that draw, after the SALSO idea of Dahl, Johnson & Mueller
#' (2022): sweep after sweep, each point moves to the existing or new cluster
#' that lowers the expected loss the most, until no single move lowers it.
#' Every move lowers the expected loss, so the searched estimate is never
#' worse than the best draw (`fit$best_draw_loss`), and a sweep costs about
#' as much as comparing one candidate with every draw, so the search adds
#' little to the choice among draws. It finds a local minimum, not
#' necessarily the global one. `point_estimate = "draws"` keeps the best
#' draw. Each expected loss comes from contingency tables of the estimate
#' against the draws (for Binder's loss this is the posterior similarity
#' matrix form, read from the tables), so no \eqn{n \times n}{n x n} matrix
#' is formed; [psm()] gives that matrix on request. `confidence` is, for each
#' point, the posterior mean share of the other members of its estimated
#' cluster that share its cluster.
#'
#' The draws take `4 * n * chains * kept` bytes. With `keep_draws = NULL`
#' they are kept when that is at most `getOption("sideclust.max_draws_bytes",
#' 5e8)` bytes; otherwise only `summary_draws` evenly spaced draws are stored
#' for the point estimate and then dropped from the fit, keeping the traces
#' and summaries. `keep_draws = TRUE` beyond the limit is an error (raise the
#' option, thin more, or use `keep_draws = FALSE`).
#'
#' @section Sparse counts:
#' With `family = "multinomial"`, a sparse `x` (a `Matrix` sparse matrix such
#' as a document-term `dgCMatrix`, or slam's `simple_triplet_matrix`) stays
#' sparse, for both methods: it is converted once to rows of non-zeros (a
#' `dgRMatrix` is read as is, a `dgCMatrix` costs one transpose), and the
#' Dirichlet-multinomial terms of a point (Gibbs: its predictive density given
#' a cluster; variational: its expected log-likelihood and the clusters'
#' Dirichlet factors) run over its non-zeros, so a sweep costs
#' \eqn{O(\textrm{nnz} \times K)}{O(nnz K)} plus \eqn{O(K p)}{O(K p)} for the
#' clusters' totals; each cluster keeps a dense count vector of length `p`.
#' The fit is the one the dense matrix gives (same draws for the same seed, up
#' to rounding). Whole-chunklet moves (`chunklet_moves`) sum a chunklet's
#' counts once and score each candidate cluster over the categories the
#' chunklet uses. The Gaussian families' arithmetic is dense: they convert
#' sparse data to a dense matrix, as before.
#'
#' @param x Data: a numeric matrix or data.frame, one row per point (counts
#'   for `family = "multinomial"`, which also takes a sparse matrix, see
#'   Sparse counts).
#' @param side Side information: `NULL`, a [constraints()] object (confidences
#'   act as exponents of the pair likelihoods), partial labels (two labelled
#'   points form a must-link when their labels agree and a cannot-link
#'   otherwise; counted from per-cluster label tallies, never expanded), a
#'   TVClust matrix E, or anything [as_constraints()] accepts.
#' @param family Cluster model: `"gaussian"` (full covariance),
#'   `"diagonal"` or `"multinomial"`; see [tvclust_prior()].
#' @param method `"gibbs"` (the collapsed sampler) or `"variational"` (mean
#'   field; see Variational inference).
#' @param iter Sweeps per chain, burn-in included.
#' @param burn_in Sweeps discarded at the start of each chain.
#' @param thin Keep every `thin`-th sweep after the burn-in.
#' @param chains Number of chains.
#' @param threads Threads to run the chains on (at most `chains`); under a
#'   future plan with several workers, the threads of each worker (one unless
#'   given; see "Threads and future workers").
#' @param alpha Concentration of the Dirichlet process (its starting value
#'   when `alpha_prior` is given).
#' @param alpha_prior `NULL` to keep `alpha` fixed, or `c(shape, rate)` of a
#'   Gamma prior under which `alpha` is sampled (Escobar & West 1995).
#' @param p,q Probability of a must-link within a cluster and of a cannot-link
#'   across clusters: fixed values, or starting values when `pq_prior` is
#'   given. Both must lie in (0, 1).
#' @param pq_prior `NULL` to keep `p` and `q` fixed, or Beta priors under
#'   which they are sampled: `c(a, b)` for both, or `c(p_a, p_b, q_a, q_b)`.
#'   The posterior means (`fit$p`, `fit$q`) tell how reliable the side
#'   information was. Ignored without side information. The default learns
#'   them under Beta(1, 1) with `"gibbs"` and keeps them fixed with
#'   `"variational"`: under mean field, learned `p` and `q` can settle where
#'   the data's clusters explain the pairs as noise (on the glass data, two
#'   overlapping classes merged and `p` fell to about 0.4), so the
#'   variational fit learns them only when asked.
#' @param prior Cluster prior: `NULL` for the defaults of [tvclust_prior()],
#'   or a named list replacing some or all of them.
#' @param init Starting partition of each chain: `"random"` (the default for
#'   `"gibbs"`: each chain its own uniform assignment to `k` clusters),
#'   `"one"` (a single cluster), an integer vector of clusters (for every
#'   chain), or a list with one such vector per chain. For `"variational"`:
#'   `"kmeans++"` (the default), `"random"`, one partition (one run) or a
#'   list of partitions (one per restart).
#' @param k Number of clusters of the random start (`init = "random"`).
#'   TVClust is a Dirichlet-process mixture: the sampler adds and removes
#'   clusters, and the estimate has as many as the posterior supports.
#' @param truncation Number of sticks of the truncated Dirichlet process
#'   (`"variational"` only): the most clusters the fit can use. At most one
#'   per point is used (a larger value is lowered to n, with a message when
#'   given); a truncation whose responsibilities (about \eqn{5 T n}{5 T n}
#'   doubles) would pass `getOption("sideclust.max_vb_bytes", 1e10)` bytes is
#'   an error.
#' @param restarts Runs of the variational fit from different starts; the
#'   one of largest ELBO is kept.
#' @param max_iter The budget of sweeps of a variational run, all kinds
#'   together: the run to convergence, the trial sweeps of the split and
#'   delete moves (3 per move, over the points the move changed and the
#'   components it changed) and the full sweeps after an accepted move.
#'   Moves stop when it is spent. `$sweeps` counts every sweep made (at most
#'   `max_iter`), `$iterations` the full sweeps in the ELBO trace.
#' @param tol A variational run stops when a sweep raises the ELBO by less
#'   than `tol` times its absolute value.
#' @param split_merge Split-merge proposals per sweep (0 for none).
#' @param chunklet_moves Whole-chunklet moves; `NULL` means on for pairwise
#'   side information with must-links. Not available for partial labels.
#' @param loss `"vi"` (variation of information, the default) or `"binder"`,
#'   the loss the point estimate minimizes (see Point estimate and memory).
#' @param max_candidates Most stored draws tried as the point estimate.
#' @param keep_draws `NULL` (keep within the memory limit), `TRUE` or `FALSE`.
#' @param summary_draws Draws stored for the estimate when the draws are not
#'   kept.
#' @param verbose Report progress about every two seconds, as messages
#'   (silenced by [suppressMessages()]). Progress bars come through
#'   \pkg{progressr}: wrap the call in `progressr::with_progress()`, or set
#'   `progressr::handlers(global = TRUE)` once.
#' @param point_estimate `"search"` to improve the best stored draw by the
#'   local search of single-point moves (see Point estimate and memory), or
#'   `"draws"` to keep the best stored draw.
#' @return With `method = "variational"`, an object of class
#'   `c("tvclust_vb", "sideclust")`: `cluster`, `k`, `size`, `membership` (the
#'   responsibilities of the partition's clusters, n x k; rows may sum to
#'   slightly less than 1 when unused components hold some mass),
#'   `confidence` (as below, from the responsibilities), `elbo` (final),
#'   `trace$elbo` (per sweep of the restart kept), `restart_elbo`,
#'   `best_restart`, `log_weight` (\eqn{E \log \pi_k}{E log pi_k} of the
#'   clusters and of the unused components together), `p`, `q`, `alpha`
#'   (variational posterior means or the fixed values), `iterations` (full sweeps),
#'   `sweeps` (every sweep, the moves' trial sweeps included),
#'   `converged`, and what the run used. With `"gibbs"`, an object of class
#'   `c("tvclust", "sideclust")`, a list with
#'   \item{cluster}{the point estimate, clusters numbered `1..k` by first point.}
#'   \item{k}{its number of clusters.}
#'   \item{confidence}{per point, see Point estimate and memory.}
#'   \item{draws}{stored partitions, one row per kept sweep (chain after
#'     chain), or `NULL`; `draw_chain` and `draw_iteration` say where each
#'     came from.}
#'   \item{trace}{a list of `iter` x `chains` matrices: `log_posterior` (the
#'     log joint density of partition, data and side information up to a
#'     constant), `k`, `p`, `q`, `alpha`; `kept` marks the kept sweeps.}
#'   \item{posterior_k}{posterior distribution of the number of clusters.}
#'   \item{p, q, alpha}{posterior means (the fixed values when not sampled).}
#'   \item{rhat}{rank-normalized split R-hat (Vehtari et al. 2021, from
#'     [posterior::rhat()]) of each traced quantity: the number of clusters,
#'     the log posterior, and `p`, `q`, `alpha` when sampled (near 1 when the
#'     chains agree).}
#'   \item{diagnostics}{a data frame with that R-hat and the bulk and tail
#'     effective sample sizes of each traced quantity.}
#'   \item{expected_loss, best_draw_loss}{posterior expected loss of the
#'     estimate and of the best candidate draw (equal with
#'     `point_estimate = "draws"`).}
#'   \item{iterations, converged}{sweeps per chain, and whether every R-hat is
#'     below 1.1 (the package's threshold; Vehtari et al. recommend 1.01 for
#'     final inference). When it is not, run longer or pool more chains with
#'     [combine_chains()].}
#'   \item{family, prior, settings, data, side, n, call}{what the run used
#'     (`data` for [predict()]).}
#' @references
#' Khashabi, D., Wieting, J., Liu, J. Y. and Liang, F. (2015). Clustering with
#' side information: from a probabilistic model to a deterministic algorithm.
#' arXiv:1508.06235.
#'
#' Neal, R. M. (2000). Markov chain sampling methods for Dirichlet process
#' mixture models. Journal of Computational and Graphical Statistics 9, 249-265.
#'
#' Dahl, D. B., Johnson, D. J. and Mueller, P. (2022). Search algorithms and
#' loss functions for Bayesian clustering. Journal of Computational and
#' Graphical Statistics 31, 1189-1201.
#'
#' Wade, S. and Ghahramani, Z. (2018). Bayesian cluster analysis: point
#' estimation and credible balls. Bayesian Analysis 13, 559-626.
#'
#' Vehtari, A., Gelman, A., Simpson, D., Carpenter, B. and Buerkner, P.-C.
#' (2021). Rank-normalization, folding, and localization: an improved R-hat
#' for assessing convergence of MCMC. Bayesian Analysis 16, 667-718.
#'
#' Blei, D. M. and Jordan, M. I. (2006). Variational inference for Dirichlet
#' process mixtures. Bayesian Analysis 1, 121-143.
#'
#' Hughes, M. C. and Sudderth, E. B. (2013). Memoized online variational
#' inference for Dirichlet process mixture models. Advances in Neural
#' Information Processing Systems 26.
#'
#' Jain, S. and Neal, R. M. (2004). A split-merge Markov chain Monte Carlo
#' procedure for the Dirichlet process mixture model. Journal of
#' Computational and Graphical Statistics 13, 158-182.
#' @seealso [tvclust_prior()], [psm()], [combine_chains()] to pool runs,
#'   [as_draws_array.tvclust()] for the traces, [rdp_means()] (the small-variance
#'   limit), [sample_constraints()].
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(1)
#' side <- sample_constraints(iris$Species, rate = 0.01, noise = 0.1)
#' fit <- tvclust(x, side, iter = 200, chains = 2, threads = 1)
#' fit
#' compare_partitions(iris$Species, fit$cluster)
#' c(p = fit$p, q = fit$q)   # how reliable the constraints looked
#' plot(fit, what = "trace")
#' vb <- tvclust(x, side, method = "variational", restarts = 2)
#' compare_partitions(iris$Species, vb$cluster)
#' @export
tvclust <- function(x, side = NULL, k = 5L, family = c("gaussian", "diagonal", "multinomial"),
                    method = c("gibbs", "variational"),
                    iter = 1000L, burn_in = iter %/% 2L, thin = 1L, chains = 2L,
                    threads = getOption("sideclust.threads", 2L),
                    alpha = 1, alpha_prior = NULL, p = 0.9, q = 0.9,
                    pq_prior = if (method == "gibbs") c(1, 1),
                    prior = NULL, init = NULL, split_merge = 1L,
                    chunklet_moves = NULL, loss = c("vi", "binder"), max_candidates = 100L,
                    keep_draws = NULL, summary_draws = 200L, verbose = FALSE,
                    point_estimate = c("search", "draws"),
                    truncation = max(20L, 2L * k), restarts = 1L, max_iter = 1000L, tol = 1e-7) {
  call <- match.call()
  family <- match_arg(family)
  method <- match_arg(method)
  given <- names(call)[-1L]
  other <- if (method == "gibbs") tvclust_vb_only else tvclust_gibbs_only
  if (length(wrong <- intersect(given, other))) {
    stop_arg(wrong[1L], sprintf("applies to method = \"%s\" only",
                                if (method == "gibbs") "variational" else "gibbs"))
  }
  data <- x
  # dense Gaussian data: checked and transposed for the core in one pass
  pts <- if (family == "multinomial") list(x = count_points(x, "x")) else
    scan_points(x, "x", transpose = TRUE)
  x <- pts$x
  n <- n_points(x)
  if (!is_sparse_input(data)) data <- x
  side <- if (is.null(side)) NULL else as_side_info(side, n = n, arg = "side")
  if (method == "variational") {
    return(tvclust_vb(x, side, k, family, alpha, alpha_prior, p, q, pq_prior, prior, init,
                      truncation, restarts, max_iter, tol, verbose, call, data = data,
                      xt = pts$xt))
  }
  if (is.null(init)) init <- "random"
  loss <- match_arg(loss)
  point_estimate <- match_arg(point_estimate)
  iter <- check_count(iter, "iter")
  burn_in <- check_count(burn_in, "burn_in", lower = 0L)
  thin <- check_count(thin, "thin")
  if (burn_in >= iter) stop_arg("burn_in", sprintf("must be less than `iter` (%d)", iter))
  kept <- (iter - burn_in) %/% thin
  if (kept < 1L) stop_arg("thin", "leaves no draws after the burn-in; lower it")
  chains <- check_count(chains, "chains")
  estimator <- list(loss = loss, point_estimate = point_estimate,
                    max_candidates = check_count(max_candidates, "max_candidates"))
  threads <- check_count(threads, "threads")
  settings <- tvclust_settings(side, alpha, alpha_prior, p, q, pq_prior, split_merge,
                               chunklet_moves)
  prior <- resolve_tvclust_prior(prior, x, family)
  if (family == "gaussian" && n <= n_coordinates(x)) {
    # full covariances from fewer points than columns: the sampler often keeps
    # one cluster where the pairs ask for more, so say so rather than answer quietly
    warning(sprintf(paste("`x` has %d columns for %d points: Gibbs sampling of full-covariance",
                          "clusters often merges clusters here; use method = \"variational\",",
                          "family = \"diagonal\", or fewer columns (e.g. leading principal components)"),
                    n_coordinates(x), n), call. = FALSE)
  }
  init <- tvclust_init(init, n, chains, check_count(k, "k"))
  # checked here, not in tvclust_store(), which reads it only when draws are thinned
  summary_draws <- check_count(summary_draws, "summary_draws", lower = 1L)
  store <- tvclust_store(keep_draws, n, chains, kept, summary_draws)
  res <- tvclust_run_chains(pts$xt %||% points_for_core(x), side, family, prior, settings, init,
                            list(iter = iter, burn_in = burn_in, thin = thin,
                                 store = store$store, threads = threads,
                                 verbose = check_flag(verbose, "verbose")),
                            threads_given = !missing(threads))
  new_tvclust(res, data, side, family, prior, settings, store$keep, iter, burn_in, thin,
              estimator, call)
}

tvclust_settings <- function(side, alpha, alpha_prior, p, q, pq_prior, split_merge,
                             chunklet_moves) {
  alpha <- check_number(alpha, "alpha", lower = 0, lower_open = TRUE)
  p <- check_number(p, "p", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE)
  q <- check_number(q, "q", lower = 0, upper = 1, lower_open = TRUE, upper_open = TRUE)
  positive <- function(v, arg, len) {
    if (is.null(v)) return(numeric())
    if (!is.numeric(v) || !length(v) %in% len || any(!is.finite(v)) || any(v <= 0)) {
      stop_arg(arg, sprintf("must be NULL or %s positive numbers",
                            paste(len, collapse = " or ")))
    }
    as.double(v)
  }
  alpha_prior <- positive(alpha_prior, "alpha_prior", 2L)
  pq_prior <- positive(pq_prior, "pq_prior", c(2L, 4L))
  if (length(pq_prior) == 2L) pq_prior <- rep(pq_prior, 2L)
  if (is.null(side)) pq_prior <- numeric()  # nothing to learn them from
  pairwise <- !is.null(side) && !inherits(side, "sideclust_labels")
  if (is.null(chunklet_moves)) chunklet_moves <- pairwise && any(side$must)
  chunklet_moves <- check_flag(chunklet_moves, "chunklet_moves")
  if (chunklet_moves && !pairwise) {
    stop_arg("chunklet_moves", "needs pairwise side information (expand labels with as_constraints())")
  }
  list(alpha = alpha, p = p, q = q, pq_prior = pq_prior, alpha_prior = alpha_prior,
       chunklet_moves = chunklet_moves,
       split_merge = check_count(split_merge, "split_merge", lower = 0L), point_scan = TRUE)
}

tvclust_init <- function(init, n, chains, k_init) {
  one_partition <- function(z, arg) {
    if (!is.numeric(z) && !is.factor(z) || length(z) != n || anyNA(z)) {
      stop_arg(arg, sprintf("must give a cluster (no NA) for each of the %d points", n))
    }
    match(z, unique(z))
  }
  if (is.character(init) && length(init) == 1L) {
    init <- match_arg(init, c("random", "one"))
    if (init == "one") return(rep(list(rep(1L, n)), chains))
    return(lapply(seq_len(chains), function(c) {
      match(z <- sample.int(min(k_init, n), n, replace = TRUE), unique(z))
    }))
  }
  if (is.list(init)) {
    if (length(init) != chains) {
      stop_arg("init", sprintf("has %d partitions for %d chains", length(init), chains))
    }
    return(lapply(seq_along(init), function(c) one_partition(init[[c]], sprintf("init[[%d]]", c))))
  }
  rep(list(one_partition(init, "init")), chains)
}

# Which kept sweeps to store: all of them when the draws are kept, otherwise
# `summary_draws` evenly spaced ones per run.
tvclust_store <- function(keep_draws, n, chains, kept, summary_draws) {
  limit <- getOption("sideclust.max_draws_bytes", 5e8)
  bytes <- 4 * n * chains * kept
  if (!is.null(keep_draws)) keep_draws <- check_flag(keep_draws, "keep_draws")
  if (isTRUE(keep_draws) && bytes > limit) {
    stop_arg("keep_draws", sprintf(
      "would need %.0f MB for %d x %d draws, above the limit of %.0f MB; thin more, use keep_draws = FALSE, or raise options(sideclust.max_draws_bytes)",
      bytes / 1e6, chains * kept, n, limit / 1e6))
  }
  keep <- if (is.null(keep_draws)) bytes <= limit else keep_draws
  store <- rep(TRUE, kept)
  if (!keep) {
    per_chain <- max(1L, min(kept, ceiling(summary_draws / chains)))
    store <- rep(FALSE, kept)
    store[unique(round(seq(1, kept, length.out = per_chain)))] <- TRUE
  }
  list(keep = keep, store = store)
}
