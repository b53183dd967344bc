/** SPEC section 2's 403 and 404 texts, for the error routes and for records a screen cannot show. */
import { Link } from 'react-router-dom';
import './components.css';

function ErrorPanel({ code, text }: { code: string; text: string }) {
  return (
    <div className="error-panel">
      <p className="error-code" aria-hidden="true">
        {code}
      </p>
      <h2>{text}</h2>
      <Link className="btn btn-primary" to="/">
        Go to Home
      </Link>
    </div>
  );
}

export const forbiddenText = (resource = 'page') => `Oops! You are forbidden to access this ${resource} based on your access level.`;

export const notFoundText = (resource = 'page') => `Oops! The ${resource} you're looking for is not here.`;

export const ForbiddenMessage = ({ resource }: { resource?: string }) => <ErrorPanel code="403" text={forbiddenText(resource)} />;

export const NotFoundMessage = ({ resource }: { resource?: string }) => <ErrorPanel code="404" text={notFoundText(resource)} />;
