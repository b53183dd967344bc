import { useParams } from 'react-router-dom';
import { MediaChannelForm } from './MediaChannelForm';

export default function MediaChannelAdd() {
  const { screenerId = '' } = useParams();
  return <MediaChannelForm key={screenerId} screenerId={screenerId} />;
}
