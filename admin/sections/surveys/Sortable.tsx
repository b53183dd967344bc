/**
 * Drag to reorder, with dnd-kit: a handle on each item takes a pointer drag, or the keyboard
 * (Space or Enter picks the item up, the arrow keys move it, Space or Enter drops it, Escape
 * puts it back), and every move is announced in words for screen readers. A question can also be
 * dropped on another page in the pages panel, by pointer or by the keyboard.
 */
import { createContext, useContext, useRef, type CSSProperties, type ReactNode } from 'react';
import {
  DndContext,
  KeyboardSensor,
  PointerSensor,
  closestCenter,
  useDroppable,
  useSensor,
  useSensors,
  type Announcements,
  type CollisionDetection,
  type DragEndEvent,
  type UniqueIdentifier,
} from '@dnd-kit/core';
import { SortableContext, sortableKeyboardCoordinates, useSortable, verticalListSortingStrategy } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import './surveys.css';

interface ListSpec {
  ids: string[];
  /** What an item is called in announcements: 'question 2', 'option Yes'. */
  name: (id: string) => string;
  /** The item moved from one 0-based place to another. */
  onMove: (id: string, from: number, to: number) => void;
  /** The item dropped on a drop target of the area (another page). */
  onMoveTo?: (id: string, target: string) => void;
}
interface Area {
  list: { current: ListSpec | null };
  /** Drop targets by id: what each is called in announcements ('page Habits'). */
  targets: Map<string, string>;
}
const AreaContext = createContext<Area | null>(null);
const TARGET = 'target:';
const targetOf = (id: UniqueIdentifier | undefined) => (typeof id === 'string' && id.startsWith(TARGET) ? id.slice(TARGET.length) : null);

/**
 * A drop target is hit where the pointer is over it, or, from the keyboard (the arrow keys move
 * the item onto it), where the item's corner now is; otherwise the nearest place in the list.
 */
const collisions: CollisionDetection = (args) => {
  const point = args.pointerCoordinates ?? { x: args.collisionRect.left + 1, y: args.collisionRect.top + 1 };
  const hit = args.droppableContainers.filter((c) => {
    const rect = args.droppableRects.get(c.id);
    return targetOf(c.id) !== null && rect && point.x >= rect.left && point.x <= rect.right && point.y >= rect.top && point.y <= rect.bottom;
  });
  if (hit.length) return hit.map((c) => ({ id: c.id }));
  return closestCenter({ ...args, droppableContainers: args.droppableContainers.filter((c) => targetOf(c.id) === null) });
};

/**
 * Where a list's items may be dragged: the list itself and the drop targets rendered inside the
 * area (a page in the pages panel beside the questions). A SortableList with `shared` uses the
 * area around it; one without makes an area of its own (an option list inside a question).
 */
export function DragArea({ children }: { children: ReactNode }) {
  const area = useRef<Area>({ list: { current: null }, targets: new Map() }).current;
  const sensors = useSensors(
    useSensor(PointerSensor, { activationConstraint: { distance: 4 } }),
    useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }),
  );
  const spec = () => area.list.current ?? { ids: [], name: String, onMove: () => undefined };
  const name = (id: UniqueIdentifier) => spec().name(String(id));
  const place = (id: UniqueIdentifier | undefined) => spec().ids.indexOf(String(id)) + 1;
  const where = (id: UniqueIdentifier) => {
    const target = targetOf(id);
    return target !== null ? `over ${area.targets.get(target) ?? 'another place'}` : `over place ${place(id)} of ${spec().ids.length}`;
  };
  const announcements: Announcements = {
    onDragStart: ({ active }) => `Picked up ${name(active.id)}, place ${place(active.id)} of ${spec().ids.length}.`,
    onDragOver: ({ active, over }) => (over ? `${name(active.id)} is ${where(over.id)}.` : `${name(active.id)} is no longer over a place.`),
    onDragEnd: ({ active, over }) => {
      const target = targetOf(over?.id);
      if (target !== null) return `${name(active.id)} moved to ${area.targets.get(target) ?? 'another place'}.`;
      return over ? `${name(active.id)} dropped at place ${place(over.id)} of ${spec().ids.length}.` : `${name(active.id)} dropped where it was.`;
    },
    onDragCancel: ({ active }) => `Moving ${name(active.id)} was cancelled; it is back at place ${place(active.id)}.`,
  };
  const end = ({ active, over }: DragEndEvent) => {
    const { ids, onMove, onMoveTo } = spec();
    if (!over || active.id === over.id) return;
    const target = targetOf(over.id);
    if (target !== null) {
      onMoveTo?.(String(active.id), target);
      return;
    }
    const from = ids.indexOf(String(active.id));
    const to = ids.indexOf(String(over.id));
    if (from >= 0 && to >= 0) onMove(String(active.id), from, to);
  };
  return (
    <AreaContext.Provider value={area}>
      <DndContext
        sensors={sensors}
        collisionDetection={collisions}
        onDragEnd={end}
        accessibility={{
          announcements,
          screenReaderInstructions: {
            draggable:
              'To move it, press Space or Enter, use the arrow keys (Left reaches the other pages, where there are any), and press Space or Enter again to drop it, or Escape to cancel.',
          },
        }}
      >
        {children}
      </DndContext>
    </AreaContext.Provider>
  );
}

export function SortableList({ shared, disabled, children, ...spec }: ListSpec & { shared?: boolean; disabled?: boolean; children: ReactNode }) {
  const area = useContext(AreaContext);
  if (shared && area) {
    area.list.current = spec;
    return (
      <SortableContext items={spec.ids} strategy={verticalListSortingStrategy} disabled={disabled}>
        {children}
      </SortableContext>
    );
  }
  return (
    <DragArea>
      <SortableList shared {...spec} disabled={disabled}>
        {children}
      </SortableList>
    </DragArea>
  );
}

/** A place outside the list an item may be dropped on (a page beside the questions), named for announcements. */
export function useDropTarget(id: string, name: string, disabled?: boolean) {
  const area = useContext(AreaContext);
  area?.targets.set(id, name);
  const { setNodeRef, isOver } = useDroppable({ id: `${TARGET}${id}`, disabled: disabled || !area });
  return { ref: setNodeRef, isOver };
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
