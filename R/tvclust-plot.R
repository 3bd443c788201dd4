# plot() of TVClust fits: traces, posterior of k, the estimate, the PSM.

#' @rdname tvclust-methods
#' @export
plot.tvclust <- function(x, what = c("trace", "k", "estimate", "psm"), max_n = 1000L, ...) {
  what <- match_choice(what, c("trace", "k", "estimate", "psm"), "what")
  switch(what,
    trace = plot_tvclust_trace(x, ...),
    k = graphics::barplot(x$posterior_k, xlab = "number of clusters", ylab = "posterior probability",
                          main = "TVClust: posterior of the number of clusters", ...),
    estimate = plot.sideclust(x, main = sprintf("TVClust estimate: %d clusters", x$k), ...),
    psm = plot_tvclust_psm(x, max_n, ...)
  )
  invisible(x)
}

tvclust_trace_titles <- c(k = "number of clusters", log_posterior = "log posterior (up to a constant)",
                          p = "p: must-link reliability", q = "q: cannot-link reliability",
                          alpha = "alpha: DP concentration")

# One panel per traced quantity, chains in colour, the burn-in shaded.
plot_tvclust_trace <- function(x, ...) {
  series <- c("k", "log_posterior")
  if (!is.null(x$side) && length(x$settings$pq_prior)) series <- c(series, "p", "q")
  if (length(x$settings$alpha_prior)) series <- c(series, "alpha")
  old <- graphics::par(mfrow = c(length(series), 1L), mar = c(3.5, 4.5, 2, 1),
                       mgp = c(2.2, 0.7, 0), oma = c(0, 0, 2, 0))
  on.exit(graphics::par(old))
  colours <- cluster_colours(max(x$chains, 2L))[seq_len(x$chains)]
  for (s in series) {
    m <- as.matrix(x$trace[[s]])
    graphics::matplot(seq_len(nrow(m)), m, type = "l", lty = 1, col = colours,
                      xlab = "iteration", ylab = s, main = tvclust_trace_titles[[s]],
                      cex.main = 0.95, font.main = 1, ...)
    usr <- graphics::par("usr")
    graphics::rect(usr[1], usr[3], x$burn_in, usr[4], col = grDevices::adjustcolor("grey", 0.3),
                   border = NA)
    graphics::text(x$burn_in / 2, usr[4], "burn-in", pos = 1, cex = 0.8, col = "grey30")
    if (s == series[1]) {
      graphics::legend("topright", legend = paste("chain", seq_len(x$chains)), col = colours,
                       lty = 1, bty = "n", cex = 0.8, horiz = TRUE)
    }
  }
  graphics::mtext(sprintf("TVClust traces: %d chain%s of %d iterations", x$chains,
                          if (x$chains == 1L) "" else "s", x$iterations),
                  outer = TRUE, font = 2)
}

# The posterior similarity matrix, points ordered by estimated cluster, with
# a colour key from 0 to 1.
plot_tvclust_psm <- function(x, max_n, ...) {
  s <- psm(x, max_n = max_n)
  o <- order(x$cluster)
  colours <- grDevices::hcl.colors(50, "Blues 3", rev = TRUE)
  old <- graphics::par(mar = c(2, 2, 3, 7))
  on.exit(graphics::par(old))
  graphics::image(s[o, rev(o)], axes = FALSE, col = colours, zlim = c(0, 1),
                  main = "Posterior similarity (points ordered by estimated cluster)", ...)
  graphics::mtext("points", side = 1, line = 0.5)
  graphics::mtext("points", side = 2, line = 0.5)
  # the key: a strip in the right margin
  usr <- graphics::par("usr")
  width <- 0.04 * (usr[2] - usr[1])
  left <- usr[2] + width
  breaks <- seq(usr[3], usr[4], length.out = length(colours) + 1L)
  graphics::rect(left, breaks[-length(breaks)], left + width, breaks[-1L], col = colours,
                 border = NA, xpd = TRUE)
  ticks <- seq(0, 1, by = 0.25)
  graphics::text(left + width, usr[3] + ticks * (usr[4] - usr[3]), formatC(ticks, format = "f", digits = 2), pos = 4,
                 cex = 0.75, xpd = TRUE)
  graphics::text(left + width / 2, usr[4], "P(same)", pos = 3, cex = 0.75, xpd = TRUE)
}
