/**
 * Drag to reorder, with dnd-kit: a handle on each item takes a pointer drag, or the keyboard
 * (Space or Enter picks the item up, the arrow keys move it, Space or Enter drops it, Escape
 * puts it back), and every move is announced in words for screen readers.
 */
import type { CSSProperties, ReactNode } from 'react';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useSensor,
  useSensors,
  type Announcements,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';

export function SortableList({
  ids,
  name,
  onMove,
  disabled,
  children,
}: {
  ids: string[];
  /** What an item is called in announcements: 'question 2', 'option Yes'. */
  name: (id: string) => string;
  /** The item moved from one 0-based place to another. */
  onMove: (id: string, from: number, to: number) => void;
  disabled?: boolean;
  children: ReactNode;
}) {
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const place = (id: UniqueIdentifier | undefined) => ids.indexOf(String(id)) + 1;
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${name(String(active.id))}, place ${place(active.id)} of ${ids.length}.`,
    onDragOver: ({ active, over }) => (over ? `${name(String(active.id))} is over place ${place(over.id)} of ${ids.length}.` : `${name(String(active.id))} is no longer over a place.`),
    onDragEnd: ({ active, over }) => (over ? `${name(String(active.id))} dropped at place ${place(over.id)} of ${ids.length}.` : `${name(String(active.id))} dropped where it was.`),
    onDragCancel: ({ active }) => `Moving ${name(String(active.id))} was cancelled; it is back at place ${place(active.id)}.`,
  };
  const end = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0) onMove(String(active.id), from, to);
  };
  return (
    <DndContext
      sensors={sensors}
      collisionDetection={closestCenter}
      onDragEnd={end}
      accessibility={{
        announcements,
        screenReaderInstructions: { draggable: 'To move it, press Space or Enter, use the arrow keys, and press Space or Enter again to drop it, or Escape to cancel.' },
      }}
    >
      <SortableContext items={ids} strategy={verticalListSortingStrategy} disabled={disabled}>
        {children}
      </SortableContext>
    </DndContext>
  );
}

/** One item's place in its SortableList: a ref and style for the item, and props for its handle. */
export function useSortableItem(id: string) {
  const { attributes, listeners, setNodeRef, setActivatorNodeRef, transform, transition, isDragging } = useSortable({ id });
  const style: CSSProperties = { transform: CSS.Translate.toString(transform), transition, ...(isDragging ? { position: 'relative', zIndex: 2 } : {}) };
  return { ref: setNodeRef, style, isDragging, handle: { ref: setActivatorNodeRef, ...attributes, ...listeners } };
}

/** The grip a drag starts from. */
export function DragHandle({ label, handle }: { label: string; handle: ReturnType<typeof useSortableItem>['handle'] }) {
  const { ref, ...props } = handle;
  return (
    <button type="button" className="drag-handle" ref={ref} {...props} aria-label={label} title={label}>
      <span aria-hidden="true">⠿</span>
    </button>
  );
}
