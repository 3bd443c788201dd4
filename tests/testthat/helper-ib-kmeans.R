# Plain-R reference for ib_kmeans(): TR-09-12's iteration (29)-(34) with
# p(x) = 1/N, written with loops. Prototypes are the rows of `m` (k x p).

ibk_blobs <- function(n_per = 10, sd = 0.6, seed = 1) {
  set.seed(seed)
  means <- rbind(c(0, 0), c(4, 0), c(2, 3.5))
  x <- do.call(rbind, lapply(1:3, function(g) {
    cbind(stats::rnorm(n_per, means[g, 1], sd), stats::rnorm(n_per, means[g, 2], sd))
  }))
  list(x = x, y = rep(1:3, each = n_per))
}

ibk_dist_r <- function(x, m) {
  d <- matrix(0, nrow(x), nrow(m))
  for (i in seq_len(nrow(x))) for (c in seq_len(nrow(m))) d[i, c] <- sum((x[i, ] - m[c, ])^2)
  d
}

# log Z(c, s): over R^p, or over the data vectors.
ibk_log_z_r <- function(d, s, normalize, p) {
  if (normalize == "space") return(rep(p / 2 * log(pi * s), ncol(d)))
  apply(d, 2, function(col) log(sum(exp(-col / s))))
}

# (29): p(c|x) proportional to p(c) p(y_x|c)^beta, p(y|c) = exp(-d/s) / Z(c).
ibk_memberships_r <- function(d, pc, log_z, beta, s) {
  out <- matrix(0, nrow(d), ncol(d))
  for (i in seq_len(nrow(d))) {
    log_pyc <- -d[i, ] / s - log_z
    if (is.infinite(beta)) {
      live <- which(pc > 0)
      out[i, live[which.max(log_pyc[live])]] <- 1
    } else {
      a <- log(pc) + beta * log_pyc
      w <- exp(a - max(a))
      out[i, ] <- w / sum(w)
    }
  }
  out
}

ibk_info_x_r <- function(pcx, pc) {
  pc_rows <- matrix(pc, nrow(pcx), ncol(pcx), byrow = TRUE)
  keep <- pcx > 0
  sum(pcx[keep] * log(pcx[keep] / pc_rows[keep])) / nrow(pcx)
}

# IB objective E[log p(y_x|c)] - I(C;X) / beta of a state.
ibk_objective_r <- function(x, pcx, m, s, normalize, beta) {
  pc <- colMeans(pcx)
  d <- ibk_dist_r(x, m)
  log_z <- ibk_log_z_r(d, s, normalize, ncol(x))
  fit <- sum(pcx * (-d / s - matrix(log_z, nrow(d), ncol(d), byrow = TRUE))) / nrow(x)
  info <- ibk_info_x_r(pcx, pc)
  c(objective = if (is.infinite(beta)) fit else fit - info / beta, info_x = info,
    distortion = sum(pcx * d) / nrow(x))
}

# One iteration from (m, pc): memberships (29), p(c) (31), prototypes (33).
ibk_step_r <- function(x, m, pc, beta, s, normalize) {
  d <- ibk_dist_r(x, m)
  pcx <- ibk_memberships_r(d, pc, ibk_log_z_r(d, s, normalize, ncol(x)), beta, s)
  pc <- colMeans(pcx)
  for (c in seq_len(nrow(m))) {
    if (pc[c] > 0) m[c, ] <- colSums(pcx[, c] * x) / sum(pcx[, c])
  }
  list(membership = pcx, pc = pc, m = m)
}

# `iterations` steps from `start` with p_0(c) = 1/k, and the trace.
ibk_run_r <- function(x, start, beta, s, normalize, iterations) {
  state <- list(m = start, pc = rep(1 / nrow(start), nrow(start)))
  trace <- matrix(NA_real_, iterations, 3,
                  dimnames = list(NULL, c("objective", "info_x", "distortion")))
  for (t in seq_len(iterations)) {
    state <- ibk_step_r(x, state$m, state$pc, beta, s, normalize)
    trace[t, ] <- ibk_objective_r(x, state$membership, state$m, s, normalize, beta)
  }
  c(state, list(trace = trace))
}
