# The browser front end of label_pairs(): a Shiny app over a labelling
# session. Every button (and key) sends the answer together with the pair it
# was given on, so a fast second key press cannot answer a pair not yet
# shown: the server ignores answers on any pair but the current one.

label_pairs_app <- function(lab, render_item = NULL) {
  layout <- labelling_layout(lab$x)
  shown <- if (lab$n > 5000L) sort(sample.int(lab$n, 5000L)) else seq_len(lab$n)
  item_dir <- tempfile("sideclust-items-")
  dir.create(item_dir)
  prefix <- basename(item_dir)
  shiny::addResourcePath(prefix, item_dir)

  ui <- shiny::fluidPage(
    title = "sideclust: label pairs",
    shiny::tags$head(shiny::tags$style(shiny::HTML(label_pairs_css)),
                     shiny::tags$script(shiny::HTML(label_pairs_js))),
    shiny::div(class = "lp-top",
               shiny::uiOutput("pair_title", inline = TRUE),
               shiny::div(id = "lp-tally", shiny::textOutput("tally", inline = TRUE))),
    shiny::div(class = "lp-buttons",
               answer_button("same", "Same", "s / 1", "btn-success"),
               answer_button("different", "Different", "d / 2", "btn-danger"),
               answer_button("skip", "Skip", "k / 3", "btn-default"),
               answer_button("done", "Done", "q / Esc", "btn-primary")),
    shiny::fluidRow(shiny::column(6, shiny::uiOutput("item_a")),
                    shiny::column(6, shiny::uiOutput("item_b"))),
    shiny::fluidRow(shiny::column(5, shiny::tableOutput("values")),
                    shiny::column(7, shiny::plotOutput("map", height = "380px"))),
    shiny::div(class = "lp-help",
               "Keys: s or 1 same, d or 2 different, k or 3 skip, q or Esc done. ",
               "Every answer is saved at once to ", shiny::code(lab$file, .noWS = "after"),
               "; a new session on that file resumes from it."))

  server <- function(input, output, session) {
    labelling_reload(lab)
    current <- shiny::reactiveVal(labelling_next(lab))
    answered <- shiny::reactiveVal(nrow(lab$answers))
    finish <- function() shiny::stopApp(labelling_result(lab))
    session$onSessionEnded(finish)

    shiny::observeEvent(input$answer, {
      a <- input$answer
      if (identical(a$answer, "done")) return(finish())
      p <- current()
      if (is.null(p) || !identical(as.integer(c(a$i, a$j)), as.integer(p))) return()
      answer <- switch(a$answer, same = "must", different = "cannot", skip = "skip", NULL)
      if (is.null(answer)) return()
      labelling_answer(lab, p[1L], p[2L], answer)
      answered(nrow(lab$answers))
      current(labelling_next(lab))
    })

    output$pair_title <- shiny::renderUI({
      p <- current()
      if (is.null(p)) {
        return(shiny::h3(id = "lp-pair", `data-i` = "", `data-j` = "",
                         if (!is.null(lab$budget) && nrow(lab$answers) >= lab$budget) {
                           "Budget reached: press Done"
                         } else "No pair left to ask: press Done"))
      }
      note <- labelling_recheck_note(lab, p)
      shiny::tagList(
        shiny::h3(id = "lp-pair", `data-i` = p[1L], `data-j` = p[2L],
                  sprintf("Are items %d and %d in the same cluster?", p[1L], p[2L])),
        if (!is.null(note)) shiny::p(id = "lp-again", class = "lp-again", note))
    })
    output$tally <- shiny::renderText({
      answered()
      labelling_tally(lab)
    })
    item_output <- function(which) {
      shiny::renderUI({
        p <- current()
        if (is.null(p)) return(NULL)
        i <- p[which]
        shiny::div(class = "lp-item", shiny::h4(sprintf("Item %d", i)),
                   if (!is.null(render_item)) item_ui(render_item, i, item_dir, prefix))
      })
    }
    output$item_a <- item_output(1L)
    output$item_b <- item_output(2L)
    output$values <- shiny::renderTable({
      p <- current()
      if (!is.null(p)) pair_values(lab$x, p)
    }, digits = 3)
    output$map <- shiny::renderPlot({
      answered()
      draw_pair_map(layout, shown, current(), lab$fit$cluster)
    })
  }
  shiny::shinyApp(ui, server)
}

# Re-reads the answers file (another session may have added to it) and
# starts the queue afresh.
labelling_reload <- function(lab) {
  answers <- read_pair_answers(lab$file, n = lab$n)
  if (nrow(answers) != nrow(lab$answers) && !is.null(lab$fitter)) lab$stale <- TRUE
  lab$answers <- answers
  lab$side <- answers_to_constraints(lab$given, answers)
  lab$queue <- data.frame(i = integer(0), j = integer(0))
  invisible(lab)
}

answer_button <- function(id, label, keys, class) {
  shiny::tags$button(id = id, type = "button", class = paste("btn lp-answer", class),
                     `data-answer` = id, label, shiny::span(class = "lp-key", keys))
}

# What render_item(i) gives, as HTML: tags and HTML as they are, text in a
# <pre>, and anything drawn (or a visible value that prints as a plot) as a
# PNG served from `dir`.
item_ui <- function(render_item, i, dir, prefix) {
  png_file <- file.path(dir, sprintf("item-%d.png", i))
  unlink(png_file)
  grDevices::png(png_file, width = 480, height = 360)
  dev <- grDevices::dev.cur()
  res <- tryCatch(withVisible(render_item(i)), error = function(e) {
    list(value = shiny::tags$pre(class = "text-danger", paste("render_item() failed:", conditionMessage(e))),
         visible = TRUE)
  })
  v <- res$value
  is_html <- inherits(v, c("shiny.tag", "shiny.tag.list", "html"))
  if (!is_html && !is.character(v) && isTRUE(res$visible) && !is.null(v)) print(v)
  if (dev %in% grDevices::dev.list()) grDevices::dev.off(dev)
  if (is_html) return(v)
  if (is.character(v)) return(shiny::tags$pre(class = "lp-text", paste(v, collapse = "\n")))
  if (file.exists(png_file)) {
    return(shiny::tags$img(src = sprintf("%s/%s?%d", prefix, basename(png_file), as.integer(Sys.time())),
                           class = "lp-image", alt = sprintf("item %d", i)))
  }
  NULL
}

# The data's map: the first two principal components, coloured by the
# clustering when there is one, the pair joined and ringed.
draw_pair_map <- function(layout, shown, pair, cluster) {
  op <- graphics::par(mar = c(4, 4, 2, 1))
  on.exit(graphics::par(op))
  col <- if (is.null(cluster)) {
    rep("grey55", nrow(layout))
  } else {
    cl <- as.integer(factor(cluster))
    grDevices::adjustcolor(grDevices::hcl.colors(max(cl), "Dark 3"), alpha.f = 0.6)[cl]
  }
  size <- if (length(shown) <= 500L) 1.2 else if (length(shown) <= 2000L) 0.7 else 0.4
  graphics::plot(layout[shown, 1L], layout[shown, 2L], col = col[shown], pch = 16, cex = size,
                 xlab = "PC1", ylab = "PC2",
                 main = if (is.null(cluster)) "The data" else sprintf("The current clustering (%d clusters)",
                                                                      length(unique(cluster))))
  if (!is.null(pair)) {
    graphics::segments(layout[pair[1L], 1L], layout[pair[1L], 2L], layout[pair[2L], 1L], layout[pair[2L], 2L],
                       lwd = 2)
    graphics::points(layout[pair, 1L], layout[pair, 2L], pch = 21, cex = 2.4, lwd = 2, bg = "gold")
    graphics::text(layout[pair, 1L], layout[pair, 2L], labels = pair, pos = 3, offset = 1, font = 2)
  }
}

label_pairs_css <- "
.lp-top { display: flex; align-items: baseline; gap: 2em; flex-wrap: wrap; }
#lp-tally { color: #555; }
.lp-again { color: #8a5300; margin: 0.2em 0 0 0; }
.lp-buttons { margin: 0.5em 0 1em 0; }
.lp-answer { margin-right: 0.6em; min-width: 8em; }
.lp-key { display: block; font-size: 0.75em; opacity: 0.8; }
.lp-item { border: 1px solid #ddd; border-radius: 4px; padding: 0.5em; margin-bottom: 1em; }
.lp-image { max-width: 100%; }
.lp-text { white-space: pre-wrap; max-height: 20em; overflow: auto; }
.lp-help { color: #777; font-size: 0.9em; margin: 1em 0; }
"

label_pairs_js <- "
(function() {
  function send(answer) {
    var pair = document.getElementById('lp-pair');
    if (!pair || !window.Shiny || !Shiny.setInputValue) return;
    Shiny.setInputValue('answer', {answer: answer, i: Number(pair.dataset.i), j: Number(pair.dataset.j),
                                   nonce: Math.random()}, {priority: 'event'});
  }
  document.addEventListener('click', function(e) {
    var b = e.target.closest ? e.target.closest('.lp-answer') : null;
    if (b) send(b.getAttribute('data-answer'));
  });
  var keys = {s: 'same', '1': 'same', d: 'different', '2': 'different', k: 'skip', '3': 'skip',
              q: 'done', Escape: 'done'};
  document.addEventListener('keydown', function(e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    if (e.target && /^(input|textarea|select)$/i.test(e.target.tagName)) return;
    var id = keys[e.key.length === 1 ? e.key.toLowerCase() : e.key];
    if (!id) return;
    e.preventDefault();
    send(id);
  });
})();
"
