import MovieCatalog

import MovieDomain

/// `filter`: the movies that match a filter set.
enum FilterCommand {
    static let sort = Option<SortKey>.choice("--sort", value: "key", help: "title (default, then year), year, rating, votes or duration.")
    static let desc = Flag("--desc", help: "Sort in descending order.")
    static let limit = Option<Int>.count("--limit", help: "Print at most N movies.")
    static let offset = Option<Int>.count("--offset", help: "Skip the first N movies.")
    static let format = Option<OutputFormat>.choice("--format", value: "format", help: "table (default), csv, tsv, json or jsonl.")
    static let count = Flag("--count", help: "Print only the number of matching movies.")
    /// The largest table page held in memory to choose its columns (see `run`).
    static let heldPage = 1_000
    static let explain = Flag("--explain", help: "Print the SQL, its bound values and SQLite's query plan instead of movies.")

    static let spec = CommandSpec(
        name: "filter", abstract: "List the movies that match a filter set.",
        usage: "moviecat filter [<facet:value>...] [--genre <g>]... [--preset <name>]... [--sort <key>] [--desc] [--limit <n>] [--offset <n>] [--format <format>] [--count] [--explain]",
        arguments: [ArgumentSpec("<facet:value>", "Filter elements as tokens: genre:drama rating:4.. year:1990s title:godfather.",
                                 completion: .filterTokens)],
        options: FilterOptions.all + [sort, desc, limit, offset, format, count, explain],
        examples: [
            "moviecat filter --genre drama --rating 5 --duration 3h",
            "moviecat filter --genre action,comedy --year 2010.. --sort rating --desc --limit 10",
            "moviecat filter genre:drama exclude-genre:romance title:godfather",
            "moviecat filter --preset classics --format json",
            "moviecat filter --votes 100k.. --sort votes --desc --count",
        ])

    static let command = Command(spec: spec) { parsed, context in
        var query = MovieQuery(filters: try context.filterSet(parsed, tokens: parsed.positionals))
        query.sort = parsed[sort] ?? .title
        query.descending = parsed[desc]
        query.limit = parsed[limit]
        query.offset = parsed[offset]
        let format = parsed[format] ?? .table
        let catalog = try context.catalog()
        if parsed[explain] {
            // A listing's plan reads its statistics and the tie's value from the snapshot it explains.
            try catalog.reading {
                try FilterCommand.explain(parsed[count] ? catalog.countPlan(query.filters) : catalog.plan(query), catalog: catalog, to: context.stdout)
            }
            return
        }
        if parsed[count] {
            context.stdout.write("\(try catalog.count(query.filters))\n")
            return
        }
        // One plan (one sample) for the table's columns and its rows, all read from one snapshot:
        // a tie the plan split at, or the columns it found values in, stay as they were.
        let shown = try catalog.reading {
            var plan = try catalog.plan(query)
            var tableFields = MovieField.allCases
            // A table's page of up to `heldPage` movies is read once and held, its columns chosen
            // from its rows (asking SQL first ran a deep page's sort twice).
            var held: [Movie]?
            if format == .table {
                let filled: Set<MovieField>
                if let limit = query.limit, limit <= FilterCommand.heldPage {
                    let page = try catalog.movies(query, plan: plan)
                    filled = Set(MovieWriter.optionalColumns.filter { field in page.contains { $0[field] != .null } })
                    held = page
                } else {
                    filled = try catalog.fieldsWithValues(MovieWriter.optionalColumns, running: &plan)
                }
                tableFields.removeAll { MovieWriter.optionalColumns.contains($0) && !filled.contains($0) }
            }
            let writer = MovieWriter(format: format, to: context.stdout, genres: try catalog.genres(),
                                     width: context.stdout.terminalColumns(environment: context.environment),
                                     tableFields: tableFields)
            if let held { held.forEach(writer.write) } else { try catalog.forEachMovie(query, plan: plan) { writer.write($0) } }
            try writer.finish()
            return writer.count
        }
        if format == .table { context.note("\(shown) movie\(shown == 1 ? "" : "s")") }
    }

    /// An estimate as grouped digits; one past Int's range (a page near Int64.max rows, ids spread
    /// over all of Int64) is clamped rather than converted, which would trap.
    static func estimate(_ value: Double) -> String {
        guard value.isFinite else { return "?" }
        return NumberText.grouped(value >= Double(Int.max) ? Int.max : Int(max(0, value).rounded()))
    }

    /// Prints the chosen plan with the estimates behind it, then its SQL, bound values and SQLite's query plan.
    static func explain(_ plan: QueryPlan, catalog: Catalog, to out: TextOutput) throws {
        out.write("PLAN:\n  \(plan.driver) (estimated \(estimate(plan.movies)) movies, \(estimate(plan.matches)) matching)\n")
        for (driver, rows) in plan.costs.sorted(by: { $0.rows < $1.rows }) {
            out.write("  cost of \(driver): \(estimate(rows)) rows\n")
        }
        if plan.packedRows == .rowCounts {
            out.write("  counted from the row count at the head of each block's packed facet rows in movie_facet_totals\n")
            out.write("  (blocks without them from movie_facets; the statement below when fewer than half have them or the table cannot be read)\n")
        } else if plan.packedRows == .tallied {
            out.write("  counted in moviecat from the packed facet rows of movie_facet_totals, one part per core on a large catalog\n")
            out.write("  (blocks without them from movie_facets; the statement below only if the table cannot be read)\n")
        } else if let column = plan.idOrder {
            out.write("  on a large catalog: counted in parts by \(column) range, one per core\n")
        }
        if let tie = plan.largeTie {
            out.write("  the page ends among the many movies with \(tie.field.name) \(TextEscaping.visible(tie.value.description)): those walked in title order\n")
        }
        if let skipped = plan.skipped {
            let value = skipped.before == .null ? "no \(skipped.field.name)" : "\(skipped.field.name) \(TextEscaping.visible(skipped.before.description))"
            out.write("  a deep page: the matches of each \(skipped.field.name) value counted first; the \(NumberText.grouped(Int(skipped.movies))) before \(value) skipped, those from there to the page's end numbered\n")
        }
        if let steps = plan.walkRanOut {
            out.write("  the cheapest plan's walk in sort order found no page's end within its \(NumberText.grouped(steps)) SQLite steps (a page read counts \(WalkLimit.readSteps)) while planning: this plan instead\n")
        }
        if let limit = plan.walkLimit {
            out.write("  the walk gives up if its page is not ready after \(NumberText.grouped(limit.steps)) SQLite steps, a page read counting \(WalkLimit.readSteps) (the next plan costs \(estimate(limit.rows)) rows); then: \(limit.instead.driver)\n")
        }
        let sql = plan.sql
        out.write("SQL:\n  \(sql.sql)\n")
        out.write("BINDINGS:\n")
        if sql.bindings.isEmpty { out.write("  (none)\n") }
        for (index, value) in sql.bindings.enumerated() { out.write("  ?\(index + 1) = \(TextEscaping.visible(value.description))\n") }
        out.write("QUERY PLAN:\n")
        for line in try catalog.queryPlan(sql) { out.write("  \(line)\n") }
    }
}

/// `facets`: the app's filter list with disjunctive counts.
enum FacetsCommand {
    enum Format: String, CaseIterable, Sendable { case table, json }

    static let format = Option<Format>.choice("--format", value: "format", help: "table (default) or json.")

    static let spec = CommandSpec(
        name: "facets", abstract: "Show each facet's values with the number of movies they match.",
        usage: "moviecat facets [<facet:value>...] [--genre <g>]... [--preset <name>]... [--format <format>]",
        arguments: [ArgumentSpec("<facet:value>", "The selected elements, as for filter.", completion: .filterTokens)],
        options: FilterOptions.all + [format],
        examples: [
            "moviecat facets",
            "moviecat facets --genre drama --rating 5",
            "moviecat facets genre:comedy year:2010s --format json",
        ])

    static let command = Command(spec: spec) { parsed, context in
        let set = try context.filterSet(parsed, tokens: parsed.positionals)
        let catalog = try context.catalog()
        let counts = try FacetCounter(catalog: catalog).counts(for: set)
        switch parsed[format] ?? .table {
        case .table: context.stdout.write(FacetWriter.table(counts, genres: try catalog.genres(),
                                                            width: context.stdout.terminalColumns(environment: context.environment)))
        case .json: context.stdout.write(FacetWriter.json(counts))
        }
    }
}
