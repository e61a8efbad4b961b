import MovieDomain
import SQLiteStore
/// A set of filter elements: same facet OR-ed, different facets AND-ed, as in the original app.
public struct FilterSet: Hashable, Sendable, Sequence, CustomStringConvertible {
    /// The elements; equal elements collapse.
    public private(set) var elements: Set<MovieFilter>

    /// Creates a set of the given elements.
    public init<S: Sequence>(_ elements: S) where S.Element == MovieFilter {
        self.elements = Set(elements)
    }

    /// Creates an empty set.
    public init() { elements = [] }

    /// Adds an element (no effect when already present).
    public mutating func insert(_ element: MovieFilter) { elements.insert(element) }

    /// Adds every element of `other` (set union, as `--preset` does).
    public mutating func formUnion<S: Sequence>(_ other: S) where S.Element == MovieFilter {
        elements.formUnion(other)
    }

    /// Whether the set has no elements.
    public var isEmpty: Bool { elements.isEmpty }
    /// The number of elements.
    public var count: Int { elements.count }
    /// Whether the set holds `element`.
    public func contains(_ element: MovieFilter) -> Bool { elements.contains(element) }
    /// Iterates over the elements, in no particular order.
    public func makeIterator() -> Set<MovieFilter>.Iterator { elements.makeIterator() }

    /// The elements in canonical order (by facet, then value), for stable SQL and output.
    public var sorted: [MovieFilter] { elements.sorted() }

    /// The selected elements of one facet, in canonical order.
    public func elements(of facet: Facet) -> [MovieFilter] { sorted.filter { $0.facet == facet } }

    /// The set without the elements of one facet (disjunctive facet counts).
    public func removing(_ facet: Facet) -> FilterSet { FilterSet(elements.filter { $0.facet != facet }) }

    /// Canonical tokens, space-separated.
    public var description: String { sorted.map(\.description).joined(separator: " ") }
}
