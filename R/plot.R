#' Plot a clustering with its side information
#'
#' Draws the points in two dimensions, coloured by cluster with a legend: the
#' data itself when it has two columns, the first two principal components
#' when it has more (axes labelled with the share of variance they explain),
#' the values against their index when it has one. Side information is drawn
#' so that it stays legible on real data: by default only the broken
#' constraints (must-links solid, cannot-links dashed, in black), all
#' constraints with `links = "all"` (kept ones thin and grey, an evenly spaced
#' subset of at most `max_links`). Labelled points (partial labels) are
#' ringed. Centres are marked with a cross; Gaussian models (constrained
#' mixtures, CEC, TVClust) also get the 95% ellipse of each cluster's
#' covariance, projected onto the plane.
#'
#' `what = "uncertainty"`, for fits with membership probabilities (`$z` or
#' `$membership`), draws each point with a size growing with its uncertainty,
#' 1 minus its largest membership probability, as mclust does.
#'
#' @param x A `sideclust` fit.
#' @param data The data that was clustered; by default the copy the fit keeps.
#' @param what `"clusters"` or `"uncertainty"`.
#' @param side Side information to draw; by default the fit's.
#' @param links Which constraints to draw: `"broken"` (the default), `"all"`
#'   or `"none"`.
#' @param max_links With `links = "all"`, the largest number of kept
#'   constraints drawn.
#' @param ellipses Draw the covariance ellipses of Gaussian models.
#' @param legend Draw the legend (in the right margin).
#' @param main Title.
#' @param ... Further arguments for [graphics::plot()].
#' @return `x`, invisibly.
#' @examples
#' x <- scale(iris[, 1:4])
#' set.seed(2)
#' side <- sample_constraints(iris$Species, rate = 0.002, noise = 0.1)
#' fit <- rdp_means(x, side, k = 3)
#' plot(fit)
#' plot(fit, links = "all")
#' mix <- constrained_mixture(x, side, k = 3)
#' plot(mix)
#' plot(mix, what = "uncertainty")
#' @export
plot.sideclust <- function(x, data = x$data, what = c("clusters", "uncertainty"),
                           side = x$side, links = c("broken", "all", "none"),
                           max_links = 300L, ellipses = TRUE, legend = TRUE, main = NULL, ...) {
  what <- match_choice(what, c("clusters", "uncertainty"), "what")
  links <- match_choice(links, c("broken", "all", "none"), "links")
  max_links <- check_count(max_links, "max_links", lower = 0L)
  if (is.null(data)) {
    stop_arg("data", "is missing and the fit keeps no copy of its data; call plot(fit, data)")
  }
  data <- check_data_matrix(data, "data")
  cluster <- unname(x$cluster)
  if (nrow(data) != length(cluster)) {
    stop_arg("data", sprintf("has %d rows but the fit clustered %d points",
                             nrow(data), length(cluster)))
  }
  prob <- fit_probability(x)
  if (what == "uncertainty" && is.null(prob)) {
    stop_arg("what", sprintf("\"uncertainty\" needs membership probabilities; %s fits have none",
                             method_label(x)))
  }
  view <- plane_view(data)
  k <- max(cluster)
  colours <- cluster_colours(k)
  if (is.null(main)) {
    main <- sprintf("%s: %d clusters%s", method_label(x), k,
                    if (what == "uncertainty") ", point size = uncertainty" else "")
  }
  old <- graphics::par(mar = c(4.5, 4.5, 3, if (legend) 11.5 else 1))
  on.exit(graphics::par(old))
  graphics::plot(view$xy, type = "n", xlab = view$labels[1], ylab = view$labels[2],
                 main = main, ...)
  key <- legend_key(paste("cluster", seq_len(k)), col = colours, pch = 19)
  if (!is.null(side)) side <- as_side_info(side, n = nrow(data), arg = "side")
  if (inherits(side, "sideclust_constraints") && length(side$i) > 0L && links != "none") {
    drawn <- draw_links(view$xy, side, cluster, links, max_links)
    key <- c_keys(key, drawn)
  }
  size <- if (what == "uncertainty") {
    0.6 + 3 * (1 - prob[cbind(seq_len(nrow(prob)), max.col(prob, ties.method = "first"))])
  } else 0.8
  graphics::points(view$xy, col = colours[cluster], pch = 19, cex = size)
  if (inherits(side, "sideclust_labels")) {
    graphics::points(view$xy[!is.na(side$labels), , drop = FALSE], cex = 1.3)
    key <- c_keys(key, legend_key("labelled point", pch = 1))
  }
  key <- c_keys(key, draw_gaussians(x, view, colours, ellipses))
  if (legend) draw_key(key)
  invisible(x)
}

# Distinct cluster colours, none of them the black of broken constraints:
# Okabe & Ito's colour-blind safe palette without its black, then HCL hues.
cluster_colours <- function(k) {
  if (k <= 8L) return(unname(grDevices::palette.colors(9L, "Okabe-Ito")[-1L])[seq_len(k)])
  grDevices::hcl.colors(k, "Dark 3")
}

# Two plotting coordinates for the rows of a matrix, the axis labels, and the
# projection of new rows (centres) and covariances into the same plane.
plane_view <- function(data) {
  if (ncol(data) == 1L) {
    return(list(xy = cbind(seq_len(nrow(data)), data[, 1]),
                labels = c("index", colnames(data)[1] %||% "x"), project = NULL))
  }
  if (ncol(data) == 2L) {
    return(list(xy = data, labels = colnames(data) %||% c("x1", "x2"),
                project = function(m) m, axes = diag(2)))
  }
  pca <- stats::prcomp(data)
  share <- 100 * pca$sdev^2 / sum(pca$sdev^2)
  list(xy = pca$x[, 1:2], labels = sprintf("PC%d (%.1f%% of variance)", 1:2, share[1:2]),
       project = function(m) stats::predict(pca, m)[, 1:2, drop = FALSE],
       axes = pca$rotation[, 1:2])
}

# Broken constraints in black (must-links solid, cannot-links dashed); with
# links = "all" the kept ones too, thin and grey, at most max_links of them.
draw_links <- function(xy, side, cluster, links, max_links) {
  broken <- side$must != (cluster[side$i] == cluster[side$j])
  seg <- function(idx, col, lwd) {
    if (length(idx) == 0L) return(invisible())
    graphics::segments(xy[side$i[idx], 1], xy[side$i[idx], 2],
                       xy[side$j[idx], 1], xy[side$j[idx], 2],
                       col = col, lwd = lwd, lty = ifelse(side$must[idx], 1, 2))
  }
  key <- NULL
  if (links == "all") {
    kept <- which(!broken)
    if (length(kept) > max_links) {  # an even, deterministic subset
      kept <- kept[unique(round(seq(1, length(kept), length.out = max_links)))]
    }
    seg(kept, grDevices::adjustcolor("grey50", 0.35), 1)
    key <- legend_key(c("kept must-link", "kept cannot-link"), col = "grey60", lty = 1:2)
  }
  seg(which(broken), grDevices::adjustcolor("black", 0.7), 1.2)
  c_keys(key, legend_key(sprintf(c("broken must-link (%d)", "broken cannot-link (%d)"),
                                 c(sum(broken & side$must), sum(broken & !side$must))),
                         col = "black", lty = 1:2, lwd = 1.4))
}

# Centres and, for Gaussian models, 95% covariance ellipses in the plane.
draw_gaussians <- function(x, view, colours, ellipses) {
  par <- if (inherits(x, "tvclust") && x$family != "multinomial") stats::coef(x) else
    list(centers = x$centers, covariances = x$covariances)
  centers <- par$centers
  if (is.null(view$project) || !is.matrix(centers) || ncol(centers) != length(view$axes) / 2 ||
      !is.null(x$divergence) && !identical(x$divergence, "sqeuclidean")) {
    return(NULL)
  }
  mid <- view$project(centers)
  covariances <- par$covariances
  gaussian <- ellipses && length(dim(covariances)) == 3L
  if (gaussian) {
    radius <- sqrt(stats::qchisq(0.95, 2))
    angle <- seq(0, 2 * pi, length.out = 100)
    circle <- rbind(cos(angle), sin(angle)) * radius
    for (j in seq_len(nrow(mid))) {
      s <- crossprod(view$axes, covariances[, , j] %*% view$axes)
      e <- eigen(s, symmetric = TRUE)
      shape <- e$vectors %*% diag(sqrt(pmax(e$values, 0)), 2)
      outline <- t(shape %*% circle) + rep(mid[j, ], each = ncol(circle))
      graphics::lines(outline, col = colours[j], lwd = 1.5)
    }
  }
  graphics::points(mid, pch = 4, cex = 2, lwd = 3)
  c_keys(legend_key("centre", pch = 4, lwd = 3),
         if (gaussian) legend_key("95% ellipse", col = "grey30", lty = 1, lwd = 1.5))
}

legend_key <- function(label, col = "black", pch = NA, lty = NA, lwd = 1) {
  n <- length(label)
  data.frame(label = label, col = rep_len(col, n), pch = rep_len(pch, n),
             lty = rep_len(lty, n), lwd = rep_len(lwd, n), stringsAsFactors = FALSE)
}

c_keys <- function(...) do.call(rbind, Filter(Negate(is.null), list(...)))

# The legend in the right margin, beside the plotting region.
draw_key <- function(key) {
  if (is.null(key) || nrow(key) == 0L) return(invisible())
  usr <- graphics::par("usr")
  graphics::legend(x = usr[2], y = usr[4], legend = key$label, col = key$col, pch = key$pch,
                   lty = key$lty, lwd = key$lwd, bty = "n", cex = 0.75, xpd = TRUE,
                   x.intersp = 0.8, seg.len = 1.6)
}
