/// Keeps the best `capacity` elements seen so far in a binary heap whose root is the worst
/// kept element, so n insertions cost O(n log capacity) and never sort everything.
struct TopN<Element> {
    let capacity: Int
    /// True when the first element should be kept rather than the second.
    private let isBetter: (Element, Element) -> Bool
    private var heap: [Element] = []

    init(capacity: Int, isBetter: @escaping (Element, Element) -> Bool) {
        self.capacity = max(0, capacity)
        self.isBetter = isBetter
        heap.reserveCapacity(min(self.capacity, 1 << 16))
    }

    /// What an ``insert(_:)`` did.
    enum Insertion {
        /// The element is kept, beside every one kept before.
        case added
        /// The element is kept in the place of this one, the worst kept before.
        case displaced(Element)
        /// The element is not better than the worst kept one: not kept.
        case rejected
    }

    /// Keeps `element` if it is among the best `capacity` seen so far.
    @discardableResult
    mutating func insert(_ element: Element) -> Insertion {
        if heap.count < capacity {
            heap.append(element)
            siftUp(heap.count - 1)
            return .added
        }
        guard capacity > 0, isBetter(element, heap[0]) else { return .rejected }
        let displaced = heap[0]
        heap[0] = element
        siftDown(0)
        return .displaced(displaced)
    }

    /// The kept elements, best first.
    func sortedBestFirst() -> [Element] {
        heap.sorted(by: isBetter)
    }

    private mutating func siftUp(_ start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard isBetter(heap[parent], heap[child]) else { return }
            heap.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(_ start: Int) {
        var parent = start
        while true {
            var worst = parent
            let left = 2 * parent + 1
            let right = left + 1
            if left < heap.count, isBetter(heap[worst], heap[left]) { worst = left }
            if right < heap.count, isBetter(heap[worst], heap[right]) { worst = right }
            if worst == parent { return }
            heap.swapAt(parent, worst)
            parent = worst
        }
    }
}
