# References for constrained_mixture(), written plainly in R.

# Plain EM for a Gaussian mixture from soft start z (n x k): `iters` rounds of
# M-step then E-step, as constrained_mixture() does. Returns the last z, the
# parameters of the last M-step and the log-likelihood after every M-step.
plain_em <- function(x, z, covariance = "full", iters = 20) {
  x <- as.matrix(x)
  n <- nrow(x)
  p <- ncol(x)
  k <- ncol(z)
  loglik <- numeric(iters)
  for (t in seq_len(iters)) {
    nk <- colSums(z)
    w <- nk / n
    mu <- t(z) %*% x / nk
    sig <- array(0, c(p, p, k))
    for (a in seq_len(k)) {
      d <- sweep(x, 2, mu[a, ])
      s <- crossprod(d * z[, a], d) / nk[a]
      sig[, , a] <- switch(covariance, full = s, diagonal = diag(diag(s), p),
                           spherical = diag(sum(diag(s)) / p, p), unit = diag(p))
    }
    logp <- sapply(seq_len(k), function(a) {
      r <- chol(sig[, , a])
      d <- backsolve(r, t(x) - mu[a, ], transpose = TRUE)
      log(w[a]) - 0.5 * (p * log(2 * pi) + 2 * sum(log(diag(r))) + colSums(d^2))
    })
    m <- apply(logp, 1, max)
    loglik[t] <- sum(m + log(rowSums(exp(logp - m))))
    z <- exp(logp - m)
    z <- z / rowSums(z)
  }
  list(z = z, means = mu, covariances = sig, weights = w, loglik = loglik)
}

# Exact posterior marginals by enumerating all k^n labelings; prior factor
# exp(-2 W) per violated pair.
brute_posterior <- function(prob, i, j, must, w) {
  n <- nrow(prob)
  k <- ncol(prob)
  grid <- as.matrix(expand.grid(rep(list(seq_len(k)), n)))
  lw <- rowSums(matrix(log(prob[cbind(rep(seq_len(n), each = nrow(grid)), as.vector(grid))]),
                       nrow(grid)))
  for (e in seq_along(i)) {
    same <- grid[, i[e]] == grid[, j[e]]
    bad <- if (must[e]) !same else same
    lw <- lw - 2 * w[e] * bad
  }
  pw <- exp(lw - max(lw))
  t(sapply(seq_len(n), function(a) tapply(pw, factor(grid[, a], levels = seq_len(k)), sum) / sum(pw)))
}

# Sequential mean field in plain R (Nelson & Cohen equation 9; a certain
# cannot-link multiplies by 1 - q_j(k)), every point updated in index order
# each sweep until the largest change is below tol: the schedule the core's
# residual sweeps must agree with. Pairs i, j with penalties w (Inf =
# certain cannot-link); no certain must-links.
mean_field_reference <- function(prob, i, j, must, w, tol = 1e-13, max_sweeps = 1e5) {
  b <- log(prob)
  q <- prob / rowSums(prob)
  n <- nrow(prob)
  for (sweep in seq_len(max_sweeps)) {
    change <- 0
    for (u in seq_len(n)) {
      s <- b[u, ]
      for (e in which(i == u | j == u)) {
        v <- if (i[e] == u) j[e] else i[e]
        if (is.infinite(w[e])) {
          s <- s + log(pmax(1 - q[v, ], 1e-300))
        } else {
          s <- s + (if (must[e]) 2 else -2) * w[e] * q[v, ]
        }
      }
      new <- exp(s - max(s))
      new <- new / sum(new)
      change <- max(change, abs(new - q[u, ]))
      q[u, ] <- new
    }
    if (change < tol) break
  }
  q
}

# ICM in plain R: from the most probable labels, every point in index order
# takes its best label given its neighbours (keeping its label on ties; the
# first best otherwise) until a sweep moves no point. Pairs i, j with
# finite penalties w; coupling 2W for a must-link, -2W for a cannot-link.
icm_reference <- function(prob, i, j, must, w, max_sweeps = 1000) {
  b <- log(prob)
  y <- max.col(b, ties.method = "first")
  nb <- lapply(seq_len(nrow(b)), function(a) {
    e <- which(i == a | j == a)
    list(v = ifelse(i[e] == a, j[e], i[e]), J = ifelse(must[e], 2, -2) * w[e])
  })
  for (sweep in seq_len(max_sweeps)) {
    moved <- FALSE
    for (a in seq_len(nrow(b))) {
      s <- b[a, ]
      for (t in seq_along(nb[[a]]$v)) {
        l <- y[nb[[a]]$v[t]]
        s[l] <- s[l] + nb[[a]]$J[t]
      }
      best <- which.max(s)
      if (best != y[a] && s[best] > s[y[a]]) {
        y[a] <- best
        moved <- TRUE
      }
    }
    if (!moved) break
  }
  y
}
