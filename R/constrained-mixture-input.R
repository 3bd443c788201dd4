# Argument checks and conversions for constrained_mixture() and
# constraint_posterior(): side information as pairs with penalties, the
# start, and the E-step options.

cm_inferences <- c("mean_field", "chunklet", "icm", "gibbs", "sampled_chunklet", "exact")
cm_covariances <- c("full", "diagonal", "spherical", "unit")

# Pairwise constraints (or NULL); partial labels are expanded into pairs.
cm_side <- function(side, n, arg = "side") side_as_pairs(side, n, arg)

# The confidence that certain pairs are taken as when they contradict each
# other and `penalty` is NULL (constrained_mixture(), "Contradictory certain pairs").
cm_soft_confidence <- 0.9

# The penalty W of each pair (Inf = certain). Certain constraints that
# contradict each other are an error, unless `soften`: then every certain pair
# gets a finite penalty, stated in a message (the chunklet model, which takes
# every pair as certain, keeps W and drops the cannot-links inside chunklets).
cm_penalty <- function(side, penalty, soften = FALSE, chunklet = FALSE,
                       hint = "lower their confidence or fix them") {
  if (is.null(side) || length(side$i) == 0L) {
    if (!is.null(penalty) && length(penalty) > 1L) {
      stop_arg("penalty", "must be NULL or a single number when there are no constraints")
    }
    return(double(0))
  }
  m <- length(side$i)
  if (is.null(penalty)) {
    w <- -log1p(-side$confidence)
  } else {
    if (!is.numeric(penalty) || !(length(penalty) %in% c(1L, m))) {
      stop_arg("penalty", sprintf("must be NULL, one number or %d numbers (one per pair)", m))
    }
    bad <- which(is.na(penalty) | penalty < 0)
    if (length(bad) > 0L) {
      stop_arg("penalty", sprintf("must be >= 0 (Inf for certain pairs); %d value%s not (%s)",
                                  length(bad), if (length(bad) == 1L) " is" else "s are",
                                  describe_positions(bad, "positions")))
    }
    w <- rep_len(as.double(penalty), m)
  }
  # only certain pairs can contradict each other: with none (the usual case
  # for confidences below 1) the check and its n-length temporaries are skipped
  hard <- is.infinite(w)
  if (!any(hard)) return(w)
  if (!soften) {
    check_hard_contradictions(side, hard, hint)
    return(w)
  }
  bad <- hard_contradictions(side, hard)
  if (length(bad) == 0L || chunklet) return(w)
  # certain pairs never weigh less than the strongest uncertain one
  soft <- max(-log1p(-cm_soft_confidence), w[!hard])
  w[hard] <- soft
  message(sprintf(paste0(
    "`side` has %d certain cannot-link%s inside chunklets of certain must-links; ",
    "all %d certain pairs are taken as soft, with `penalty` %.3g (confidence %.3g). ",
    "Give `penalty = Inf` to refuse contradictory certain pairs instead."),
    length(bad), if (length(bad) == 1L) "" else "s", sum(hard), soft, -expm1(-soft)))
  w
}

cm_options <- function(samples, sweeps, burn_in, inner_iter, inner_tol, max_labelings,
                       threads = 1L) {
  list(samples = check_count(samples, "samples", lower = 1L),
       threads = check_count(threads, "threads", lower = 1L),
       sweeps = check_count(sweeps, "sweeps", lower = 1L),
       burn_in = check_count(burn_in, "burn_in", lower = 0L),
       inner_iter = check_count(inner_iter, "inner_iter", lower = 1L),
       inner_tol = check_number(inner_tol, "inner_tol", lower = 0),
       max_labelings = check_number(max_labelings, "max_labelings", lower = 1))
}

# The start: cluster numbers in 1..k (integer), or an n x k matrix of
# probabilities when one was given (the glue makes the k x n start itself,
# so no n x k indicator matrix exists in R).
cm_start <- function(start, x, k) {
  n <- nrow(x)
  if (is.null(start)) {
    if (k == 1L) return(rep.int(1L, n))
    cl <- tryCatch(stats::kmeans(x, k, nstart = 5L)$cluster, error = function(e) {
      stop_arg("start", "is NULL and k-means could not start ", k, " clusters (",
               conditionMessage(e), "); give a start")
    })
    return(as.integer(cl))
  }
  if (is.matrix(start)) {
    if (nrow(start) != n || ncol(start) != k) {
      stop_arg("start", sprintf("is a %d x %d matrix but must be n x k = %d x %d",
                                nrow(start), ncol(start), n, k))
    }
    if (!is.numeric(start) || anyNA(start) || any(!is.finite(start)) || any(start < 0)) {
      stop_arg("start", "must hold finite non-negative probabilities")
    }
    rs <- rowSums(start)
    if (any(rs <= 0)) {
      stop_arg("start", sprintf("has rows summing to 0 (%s)",
                                describe_positions(which(rs <= 0))))
    }
    storage.mode(start) <- "double"
    return(start / rs)
  }
  as.integer(check_partition_start(start, n, k))
}
