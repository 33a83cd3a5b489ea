package dev.baton.store.memory;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.SplittableRandom;

/**
 * A sorted map that also counts: every node knows the size of its subtree, so the rank of a key
 * (how many entries sort before it) and the entry at a rank are found in O(log n), and so are
 * the size of any key range and the start of a page at any offset. A treap: a binary search tree
 * on the keys that is a heap on random priorities, which keeps it balanced in expectation
 * whatever the order of the keys.
 *
 * <p>Not thread-safe; the store guards it with its lock.
 *
 * @param <K> the key, in its natural order
 * @param <V> the value
 */
final class CountedTree<K extends Comparable<? super K>, V> {

    private static final class Node<K, V> {
        final K key;
        V value;
        final int priority;
        int size = 1;
        Node<K, V> left;
        Node<K, V> right;

        Node(K key, V value, int priority) {
            this.key = key;
            this.value = value;
            this.priority = priority;
        }
    }

    /** Seeded: the shape of the tree does not matter to callers, but a replay should behave the same. */
    private final SplittableRandom random = new SplittableRandom(0x5EEDL);
    private Node<K, V> root;

    int size() {
        return size(root);
    }

    boolean isEmpty() {
        return root == null;
    }

    /** Adds or replaces the entry of {@code key}. */
    void put(K key, V value) {
        Node<K, V> existing = node(key);
        if (existing != null) {
            existing.value = value;
            return;
        }
        root = insert(root, new Node<>(key, value, random.nextInt()));
    }

    /** Removes the entry of {@code key}, if any. */
    void remove(K key) {
        if (node(key) != null) root = remove(root, key);
    }

    /** How many keys sort strictly before {@code key}. */
    int rankBefore(K key) {
        int rank = 0;
        Node<K, V> n = root;
        while (n != null) {
            if (key.compareTo(n.key) <= 0) {
                n = n.left;
            } else {
                rank += size(n.left) + 1;
                n = n.right;
            }
        }
        return rank;
    }

    /** How many keys sort before {@code key} or equal it. */
    int rankThrough(K key) {
        int rank = 0;
        Node<K, V> n = root;
        while (n != null) {
            if (key.compareTo(n.key) < 0) {
                n = n.left;
            } else {
                rank += size(n.left) + 1;
                n = n.right;
            }
        }
        return rank;
    }

    /** The values from rank {@code from} on, in key order; each step is amortised O(1). */
    Iterator<V> valuesFrom(int from) {
        Deque<Node<K, V>> path = new ArrayDeque<>();
        Node<K, V> n = root;
        int k = from;
        while (n != null) {
            int left = size(n.left);
            if (k < left) {
                path.push(n);
                n = n.left;
            } else if (k == left) {
                path.push(n);
                break;
            } else {
                k -= left + 1;
                n = n.right;
            }
        }
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return !path.isEmpty();
            }

            @Override
            public V next() {
                if (path.isEmpty()) throw new NoSuchElementException();
                Node<K, V> current = path.pop();
                for (Node<K, V> m = current.right; m != null; m = m.left) path.push(m);
                return current.value;
            }
        };
    }

    private Node<K, V> node(K key) {
        Node<K, V> n = root;
        while (n != null) {
            int c = key.compareTo(n.key);
            if (c == 0) return n;
            n = c < 0 ? n.left : n.right;
        }
        return null;
    }

    private static int size(Node<?, ?> n) {
        return n == null ? 0 : n.size;
    }

    private static <K, V> Node<K, V> update(Node<K, V> n) {
        n.size = size(n.left) + size(n.right) + 1;
        return n;
    }

    private Node<K, V> insert(Node<K, V> t, Node<K, V> n) {
        if (t == null) return n;
        if (n.priority > t.priority) {
            split(t, n.key, n);
            return update(n);
        }
        if (n.key.compareTo(t.key) < 0) t.left = insert(t.left, n);
        else t.right = insert(t.right, n);
        return update(t);
    }

    /** Splits {@code t} into the keys before {@code key} (to {@code into.left}) and after it (to {@code into.right}). */
    private void split(Node<K, V> t, K key, Node<K, V> into) {
        if (t == null) {
            into.left = null;
            into.right = null;
            return;
        }
        Node<K, V> halves = new Node<>(key, null, 0);
        if (key.compareTo(t.key) < 0) {
            split(t.left, key, halves);
            t.left = halves.right;
            into.left = halves.left;
            into.right = update(t);
        } else {
            split(t.right, key, halves);
            t.right = halves.left;
            into.left = update(t);
            into.right = halves.right;
        }
    }

    private Node<K, V> remove(Node<K, V> t, K key) {
        int c = key.compareTo(t.key);
        if (c == 0) return merge(t.left, t.right);
        if (c < 0) t.left = remove(t.left, key);
        else t.right = remove(t.right, key);
        return update(t);
    }

    /** Joins two treaps, every key of {@code a} before every key of {@code b}. */
    private Node<K, V> merge(Node<K, V> a, Node<K, V> b) {
        if (a == null) return b;
        if (b == null) return a;
        if (a.priority > b.priority) {
            a.right = merge(a.right, b);
            return update(a);
        }
        b.left = merge(a, b.left);
        return update(b);
    }
}
