# Called by tools/site-check.sh. Renders pages of docs/ in headless Chromium
# (the DOM after scripts ran, and a screenshot of each), and fails when a page
# does not render what it should or an exported function has no reference page.
out <- "site-check"
dir.create(out, showWarnings = FALSE)
docs <- normalizePath("docs")
chromium <- Sys.which("chromium")
if (!nzchar(chromium)) stop("chromium not found")
flags <- c("--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
           "--window-size=1280,1600", "--virtual-time-budget=5000")

render <- function(page) {
  url <- paste0("file://", file.path(docs, page))
  if (!file.exists(file.path(docs, page))) stop("the site has no ", page)
  png <- file.path(normalizePath(out), paste0(gsub("[/.]", "-", page), ".png"))
  system2(chromium, c(flags, paste0("--screenshot=", png), url), stdout = FALSE, stderr = FALSE)
  dom <- system2(chromium, c(flags, "--dump-dom", url), stdout = TRUE, stderr = FALSE)
  if (!file.exists(png) || file.size(png) < 10000) stop("no screenshot of ", page)
  paste(dom, collapse = "\n")
}
expect_in <- function(dom, pattern, page) {
  if (!grepl(pattern, dom, fixed = TRUE)) stop(page, " does not show '", pattern, "'")
}

home <- render("index.html")
expect_in(home, "Which method when", "the home page")
expect_in(home, "reference/index.html", "the home page")

index <- render("reference/index.html")
for (title in c("Side information", "Cross-entropy clustering", "Data sets")) {
  expect_in(index, title, "the reference index")
}

articles <- c("articles/sideclust.html", "articles/parameters.html")
for (a in articles) {
  dom <- render(a)
  expect_in(dom, "<img", a)           # figures rendered
  expect_in(dom, "sourceCode", a)     # code shown
}

# Every export must be an alias of a topic whose page exists and is linked
# from the reference index.
exports <- getNamespaceExports("sideclust")
rd <- tools::Rd_db(dir = ".")
alias_page <- unlist(lapply(names(rd), function(f) {
  a <- unlist(lapply(rd[[f]], function(tag) {
    if (identical(attr(tag, "Rd_tag"), "\\alias")) as.character(tag) else NULL
  }))
  stats::setNames(rep(sub("[.]Rd$", ".html", f), length(a)), trimws(a))
}))
no_topic <- setdiff(exports, names(alias_page))
pages <- unique(alias_page[intersect(exports, names(alias_page))])
no_page <- pages[!file.exists(file.path(docs, "reference", pages))]
unlinked <- pages[!vapply(pages, function(p) grepl(paste0('href="', p, '"'), index, fixed = TRUE), logical(1))]
if (length(no_topic) || length(no_page) || length(unlinked)) {
  stop("exports without a reference page: ", paste(c(no_topic, no_page, unlinked), collapse = ", "))
}
cat(sprintf("site check passed: %d exports on %d reference pages; home, reference index and %d articles rendered; screenshots in %s/\n",
            length(exports), length(pages), length(articles), out))
